package dev.trainyard.cli;

import dev.trainyard.cli.http.Client;
import dev.trainyard.cli.http.Exit;
import picocli.CommandLine.Option;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** A command about one pull request of the queue. */
abstract class PullRequestVerb extends Verb {
  @Option(names = "--pr", required = true, paramLabel = "NUMBER", description = "The pull request.")
  long pr;

  /** The common fields with {@code pr.number} (API.md §1). */
  ObjectNode pullRequest() {
    ObjectNode body = options.queue();
    body.putObject("pr").put("number", pr);
    return body;
  }

  JsonNode read(Client client) {
    return client.read("/v1/getSubmittedPullRequest", pullRequest());
  }

  /**
   * Sends {@code body} to {@code path}, then prints the pull request as it now is (the API reads
   * its own writes), preceded by {@code done}.
   */
  int changeAndShow(Client client, Printer printer, String path, ObjectNode body, String done) {
    client.change(path, body);
    JsonNode now = read(client);
    printer.result(now, done + " " + Describe.pullRequest(now));
    return Exit.OK;
  }
}

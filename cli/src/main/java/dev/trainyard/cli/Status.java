package dev.trainyard.cli;

import dev.trainyard.cli.http.Client;
import dev.trainyard.cli.http.Exit;
import dev.trainyard.cli.http.Settings;
import picocli.CommandLine.Command;
import tools.jackson.databind.JsonNode;

@Command(
    name = "status",
    description = "Where a pull request stands: its state, place in line and expected merge.")
final class Status extends PullRequestVerb {
  @Override
  int run(Client client, Settings settings, Printer printer) {
    JsonNode pr = read(client);
    printer.result(pr, Describe.pullRequest(pr));
    return Exit.OK;
  }
}

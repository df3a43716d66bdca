package dev.trainyard.cli;

import dev.trainyard.cli.http.Client;
import dev.trainyard.cli.http.Exit;
import dev.trainyard.cli.http.Settings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

@Command(
    name = "list",
    description =
        "The queue's pull requests, the latest change first, following the pages up to --limit.")
final class ListPullRequests extends Verb {
  @Option(
      names = "--state",
      paramLabel = "STATE",
      description = "Only this state: not_ready, pending, testing, tests_passed, merged, failed, …")
  String state;

  @Option(
      names = "--limit",
      defaultValue = "50",
      paramLabel = "COUNT",
      description = "At most this many, 1-10000 (default: ${DEFAULT-VALUE}).")
  int limit;

  @Override
  int run(Client client, Settings settings, Printer printer) {
    int take = Pages.size(limit);
    ArrayNode prs =
        Pages.gather(
            limit,
            cursor -> {
              ObjectNode body = options.queue().put("take", take);
              if (state != null) {
                body.put("state", state);
              }
              if (cursor != null) {
                body.put("cursor", cursor);
              }
              JsonNode page = client.read("/v1/listPullRequests", body);
              return new Pages.Page(
                  page.path("pullRequests"), Describe.text(page.path("nextCursor")).orElse(null));
            });
    ObjectNode all = JsonNodeFactory.instance.objectNode();
    all.set("pullRequests", prs);
    StringBuilder text = new StringBuilder();
    prs.forEach(pr -> text.append(Describe.pullRequest(pr)).append('\n'));
    printer.result(all, prs.isEmpty() ? "no pull requests" : text.toString().stripTrailing());
    return Exit.OK;
  }
}

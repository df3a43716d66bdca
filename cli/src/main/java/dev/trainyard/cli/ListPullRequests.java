package dev.trainyard.cli;

import dev.trainyard.cli.http.Client;
import dev.trainyard.cli.http.Exit;
import dev.trainyard.cli.http.Refused;
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
  private static final int PAGE = 100;

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
    if (limit < 1 || limit > 10_000) {
      throw Refused.usage("--limit must be between 1 and 10000");
    }
    ObjectNode all = JsonNodeFactory.instance.objectNode();
    ArrayNode prs = all.putArray("pullRequests");
    String cursor = null;
    do {
      ObjectNode body = options.queue();
      if (state != null) {
        body.put("state", state);
      }
      body.put("take", Math.min(PAGE, limit - prs.size()));
      if (cursor != null) {
        body.put("cursor", cursor);
      }
      JsonNode page = client.read("/v1/listPullRequests", body);
      page.path("pullRequests").forEach(prs::add);
      cursor = Describe.text(page.path("nextCursor")).orElse(null);
    } while (cursor != null && prs.size() < limit);
    StringBuilder text = new StringBuilder();
    prs.forEach(pr -> text.append(Describe.pullRequest(pr)).append('\n'));
    printer.result(all, prs.isEmpty() ? "no pull requests" : text.toString().stripTrailing());
    return Exit.OK;
  }
}

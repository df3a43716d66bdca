package dev.trainyard.cli;

import dev.trainyard.cli.http.Client;
import dev.trainyard.cli.http.Exit;
import dev.trainyard.cli.http.Refused;
import dev.trainyard.cli.http.Settings;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

@Command(
    name = "list",
    description = "The repository's flaky (or broken) tests, the latest change first.")
final class FlakyList extends Verb {
  @Option(
      names = "--status",
      defaultValue = "flaky",
      paramLabel = "STATUS",
      description = "flaky or broken (default: ${DEFAULT-VALUE}).")
  String status;

  @Option(
      names = "--org",
      paramLabel = "SLUG",
      description = "The token's organization (else TRAINYARD_ORG, the config file, the owner).")
  String org;

  @Option(
      names = "--limit",
      defaultValue = "100",
      paramLabel = "COUNT",
      description = "At most this many, 1-10000 (default: ${DEFAULT-VALUE}).")
  int limit;

  @Override
  String org() {
    return org;
  }

  @Override
  int run(Client client, Settings settings, Printer printer) {
    String wanted = status.toUpperCase(Locale.ROOT);
    if (!wanted.equals("FLAKY") && !wanted.equals("BROKEN")) {
      throw Refused.usage("--status must be flaky or broken, not '" + status + "'");
    }
    int size = Pages.size(limit);
    JsonNode repo = options.queue().get("repo");
    String slug = settings.org().orElse(repo.path("owner").asString());
    AtomicLong total = new AtomicLong();
    ArrayNode tests =
        Pages.gather(
            limit,
            token -> {
              ObjectNode body = JsonNodeFactory.instance.objectNode();
              body.set("repo", repo);
              body.put("org_url_slug", slug).put("status", wanted);
              body.putObject("page_query")
                  .put("page_size", size)
                  .put("page_token", token == null ? "" : token);
              JsonNode page = client.read("/v1/flaky-tests/list-unhealthy-tests", body);
              total.set(page.path("page").path("total_rows").asLong());
              return new Pages.Page(
                  page.path("tests"),
                  Describe.text(page.path("page").path("next_page_token")).orElse(null));
            });
    ObjectNode all = JsonNodeFactory.instance.objectNode();
    all.set("tests", tests);
    all.put("total_rows", total.get());
    StringBuilder text = new StringBuilder();
    tests.forEach(test -> text.append(Describe.test(test)).append('\n'));
    printer.result(
        all,
        tests.isEmpty()
            ? "no " + wanted.toLowerCase(Locale.ROOT) + " tests"
            : text.toString().stripTrailing());
    return Exit.OK;
  }
}

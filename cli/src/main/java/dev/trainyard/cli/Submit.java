package dev.trainyard.cli;

import dev.trainyard.cli.http.Client;
import dev.trainyard.cli.http.Settings;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

@Command(
    name = "submit",
    description =
        "Submit a pull request to its queue; submitting it again applies a new priority, "
            + "--no-batch, --depends-on or --predicted-risk.")
final class Submit extends PullRequestVerb {
  @Option(
      names = "--priority",
      paramLabel = "PRIORITY",
      description = "urgent, high, medium (the default), low, or 0-255 (lower lands first).")
  String priority;

  @Option(
      names = "--no-batch",
      negatable = true,
      description = "Test it alone, never in a batch (--batch: in batches again).")
  Boolean noBatch;

  @Option(
      names = "--depends-on",
      split = ",",
      paramLabel = "NUMBER",
      description = "Pull requests of the queue it must land after (replaces the list).")
  List<Long> dependsOn;

  @Option(
      names = "--predicted-risk",
      paramLabel = "0-1",
      description =
          "The chance, 0 to 1, that it breaks the target as your predictor sees it; a batching"
              + " queue batches and bisects by it.")
  Double predictedRisk;

  @Option(
      names = "--stack",
      description =
          "Submit the pull requests it is stacked on too (its base is another's head branch), in"
              + " order.")
  boolean stack;

  @Override
  int run(Client client, Settings settings, Printer printer) {
    ObjectNode body = pullRequest();
    if (priority != null) {
      if (priority.matches("\\d{1,3}")) {
        body.put("priority", Integer.parseInt(priority));
      } else {
        body.put("priority", priority);
      }
    }
    if (noBatch != null) {
      body.put("noBatch", noBatch);
    }
    if (dependsOn != null) {
      ArrayNode list = body.putArray("dependsOn");
      dependsOn.forEach(list::add);
    }
    if (stack) {
      body.put("stack", true);
    }
    if (predictedRisk != null) {
      body.put("predictedRisk", predictedRisk);
    }
    return changeAndShow(client, printer, "/v1/submitPullRequest", body, "submitted:");
  }
}

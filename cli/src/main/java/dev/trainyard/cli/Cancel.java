package dev.trainyard.cli;

import dev.trainyard.cli.http.Client;
import dev.trainyard.cli.http.Settings;
import picocli.CommandLine.Command;

@Command(
    name = "cancel",
    description = "Take a pull request out of its queue; runs holding it stop and are re-planned.")
final class Cancel extends PullRequestVerb {
  @Override
  int run(Client client, Settings settings, Printer printer) {
    return changeAndShow(client, printer, "/v1/cancelPullRequest", pullRequest(), "cancelled:");
  }
}

package dev.trainyard.cli;

import dev.trainyard.cli.http.Client;
import dev.trainyard.cli.http.Settings;
import picocli.CommandLine.Command;

@Command(
    name = "restart",
    description = "Test a pull request of the queue again: its run stops and a new one is planned.")
final class Restart extends PullRequestVerb {
  @Override
  int run(Client client, Settings settings, Printer printer) {
    return changeAndShow(
        client, printer, "/v1/restartTestsOnPullRequest", pullRequest(), "restarted:");
  }
}

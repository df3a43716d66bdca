package dev.trainyard.cli;

import dev.trainyard.cli.http.Client;
import dev.trainyard.cli.http.Exit;
import dev.trainyard.cli.http.Refused;
import dev.trainyard.cli.http.Settings;
import java.time.Duration;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import tools.jackson.databind.JsonNode;

@Command(
    name = "wait",
    description =
        "Wait until the pull request merged (exit 0), failed or was cancelled (exit 1); a "
            + "progress line on standard error each time it moves.")
final class Wait extends PullRequestVerb {
  private static final Set<String> NOT_MERGED = Set.of("failed", "cancelled");
  private static final Duration SHORTEST_INTERVAL = Duration.ofMillis(200);

  @Option(
      names = "--interval",
      defaultValue = "10s",
      converter = Durations.class,
      paramLabel = "DURATION",
      description = "Between two looks (default: ${DEFAULT-VALUE}).")
  Duration interval;

  @Option(
      names = "--timeout",
      converter = Durations.class,
      paramLabel = "DURATION",
      description =
          "Give up after this long, with exit code 6 (default: never); a look under way may "
              + "still retry for --retry-for.")
  Duration timeout;

  @Override
  int run(Client client, Settings settings, Printer printer) {
    if (interval.compareTo(SHORTEST_INTERVAL) < 0) {
      throw Refused.usage("--interval must be at least " + SHORTEST_INTERVAL.toMillis() + "ms");
    }
    long started = client.now();
    String shown = null;
    while (true) {
      JsonNode pr = read(client);
      String line = Describe.pullRequest(pr);
      if (!line.equals(shown)) {
        printer.progress(line);
        shown = line;
      }
      String state = Describe.text(pr.path("state")).orElse("");
      if (state.equals("merged") || NOT_MERGED.contains(state)) {
        printer.result(pr, line);
        return state.equals("merged") ? Exit.OK : Exit.NOT_MERGED;
      }
      Duration pause = interval;
      if (timeout != null) {
        Duration left = timeout.minus(client.since(started));
        if (left.isNegative() || left.isZero()) {
          throw Refused.unavailable(
              "#"
                  + pr.path("prNumber").asLong()
                  + " is still "
                  + state
                  + " after "
                  + Durations.text(timeout));
        }
        pause = left.compareTo(interval) < 0 ? left : interval;
      }
      client.pause(pause);
    }
  }
}

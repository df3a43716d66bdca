package dev.trainyard.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.cli.http.Exchange;
import dev.trainyard.cli.http.Exit;
import dev.trainyard.cli.http.TestPauses;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The command line itself: what it refuses before any request, and its help. */
class TrainyardCliTest {
  @TempDir Path home;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String line) {
    Context context =
        new Context(
            Map.of("HOME", home.toString(), "TRAINYARD_TOKEN", "t"),
            new PrintWriter(out),
            new PrintWriter(err),
            new TestPauses(),
            Exchange.Observer.NONE);
    return TrainyardCli.run(line.isEmpty() ? new String[0] : line.split(" "), context);
  }

  @ParameterizedTest(name = "''{0}''")
  @CsvSource({
    "'', name a command",
    "land --repo a/b --pr 1, Unmatched argument",
    "status --pr 1, Missing required option: '--repo=OWNER/NAME'",
    "status --repo a/b, Missing required option: '--pr=NUMBER'",
    "status --repo a/b --pr x, Invalid value for option '--pr'",
    "queue --repo a/b, Unknown option",
    "queue, name what to do: get",
    "wait --repo a/b --pr 1 --timeout 5x, is not a duration like",
    "queue freeze --repo a/b, Missing required option: '--reason=TEXT'"
  })
  void aWrongCommandLineIsExitTwoWithItsReason(String line, String reason) {
    assertThat(run(line)).isEqualTo(Exit.USAGE);
    assertThat(err.toString()).contains(reason);
    assertThat(out.toString()).isEmpty();
  }

  @ParameterizedTest(name = "''{0}''")
  @CsvSource({
    "status --repo ab --pr 1, trainyard: --repo must be owner/name, not 'ab'",
    "list --repo a/b --limit 0, trainyard: --limit must be between 1 and 10000",
    "status --repo a/b --pr 1 --url ftp://x, trainyard: the server's address 'ftp://x' is not"
  })
  void aValueTheServerCouldNeverTakeIsOneLineAndExitTwo(String line, String message) {
    assertThat(run(line)).isEqualTo(Exit.USAGE);
    assertThat(err.toString()).startsWith(message).hasLineCount(1);
  }

  @Test
  void helpListsEveryCommandAndTheExitCodes() {
    assertThat(run("--help")).isZero();
    assertThat(out.toString())
        .contains("submit", "cancel", "restart", "status", "wait", "list", "queue", "flaky")
        .contains("Exit codes:", "no such queue or pull request (404)");
    out.getBuffer().setLength(0);
    assertThat(run("queue --help")).isZero();
    assertThat(out.toString())
        .contains(
            "get       The queue's state",
            "pause     Stop starting test runs",
            "resume    Run the queue again",
            "freeze    Stop landing",
            "unfreeze  Land again");
  }

  @Test
  void durationsAreWrittenAsPeopleWriteThem() {
    Durations durations = new Durations();
    assertThat(durations.convert("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(durations.convert("90s")).isEqualTo(Duration.ofSeconds(90));
    assertThat(durations.convert(" 2m")).isEqualTo(Duration.ofMinutes(2));
    assertThat(durations.convert("1h")).isEqualTo(Duration.ofHours(1));
  }
}

package dev.trainyard.worker.scm.github;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.queue.OrgRepo;
import dev.trainyard.common.queue.RepoRef;
import dev.trainyard.worker.scm.github.GithubScm.CheckOutput;
import dev.trainyard.worker.scm.github.PullRequestChecks.Shown;
import dev.trainyard.worker.scm.github.PullRequestChecks.Wanted;
import java.time.Duration;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * When a PR's GitHub state is written (issue 30: every queue change rewrote every queued PR's check
 * run, since its title holds the position): a queued PR's new position waits until a minute after
 * its last write; a conclusion, a failure comment or a new label goes at once.
 */
class CheckWriteDebounceTest {
  private static final Instant T0 = Instant.parse("2026-11-26T08:00:00Z");
  private static final OrgRepo REPO = new OrgRepo("acme", new RepoRef("github.com", "o", "r"));

  record Row(String rule, Shown last, Wanted next, Instant now, Duration delay) {
    @Override
    public String toString() {
      return rule;
    }
  }

  static Stream<Row> rows() {
    Wanted second = queued("Waiting (2 of 3)", "trainyard:queued");
    Wanted first = queued("Waiting (1 of 2)", "trainyard:queued");
    return Stream.of(
        new Row("a PR never written goes at once", null, second, T0, Duration.ZERO),
        new Row(
            "a new position 10 s after the last write waits 50 s",
            shown(second, T0),
            first,
            T0.plusSeconds(10),
            Duration.ofSeconds(50)),
        new Row(
            "a new position a minute after the last write goes at once",
            shown(second, T0),
            first,
            T0.plusSeconds(61),
            Duration.ZERO),
        new Row(
            "a conclusion goes at once",
            shown(second, T0),
            new Wanted(
                REPO,
                7,
                "sha",
                new CheckOutput("Merged", "merged", "success", null),
                null,
                true,
                "trainyard:merged"),
            T0.plusSeconds(1),
            Duration.ZERO),
        new Row(
            "a new label goes at once",
            shown(second, T0),
            queued("Testing (1 of 2)", "trainyard:testing"),
            T0.plusSeconds(1),
            Duration.ZERO));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  void writes(Row row) {
    assertThat(
            PullRequestChecks.delay(row.last(), row.next(), row.now(), PullRequestChecks.DEBOUNCE))
        .isEqualTo(row.delay());
  }

  private static Wanted queued(String title, String label) {
    return new Wanted(REPO, 7, "sha", new CheckOutput(title, title, null, null), null, true, label);
  }

  private static Shown shown(Wanted wanted, Instant at) {
    return new Shown(99L, wanted, at);
  }
}

package dev.trainyard.flaky.classify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.flaky.ingest.Outcome;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** One row per classification rule (the table in {@link Classifier}), recovery and precedence. */
class ClassifierTest {
  private static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");
  private static final Instant EARLIER = NOW.minus(Duration.ofDays(3));

  record Row(
      String rule,
      List<Observation> runs,
      Status previous,
      Health value,
      String reason,
      Instant since) {
    @Override
    public String toString() {
      return rule;
    }
  }

  /**
   * Runs on main, newest last: P passed, F failed, R passed on retry, S skipped; one hour apart.
   */
  static List<Observation> main(String outcomes) {
    List<Observation> runs = new ArrayList<>();
    for (int i = 0; i < outcomes.length(); i++) {
      Instant at = NOW.minus(Duration.ofHours(outcomes.length() - i));
      runs.add(new Observation("main-" + i, "main", null, outcome(outcomes.charAt(i)), at));
    }
    return runs;
  }

  static Outcome outcome(char c) {
    return switch (c) {
      case 'F' -> Outcome.FAILED;
      case 'R' -> Outcome.PASSED_ON_RETRY;
      case 'S' -> Outcome.SKIPPED;
      default -> Outcome.PASSED;
    };
  }

  static List<Observation> plus(List<Observation> runs, Observation... more) {
    List<Observation> all = new ArrayList<>(runs);
    all.addAll(List.of(more));
    return all;
  }

  static Observation onPr(String sha, Outcome outcome, Duration ago) {
    return new Observation(sha, "feature", 7L, outcome, NOW.minus(ago));
  }

  static Stream<Row> rules() {
    Status flakyBefore = new Status(Health.FLAKY, "passed on a retry once in 7 days", EARLIER);
    return Stream.of(
        new Row(
            "H: all passing is healthy",
            main("PPPPPPPPPP"),
            null,
            Health.HEALTHY,
            "no failures in the recent runs",
            NOW),
        new Row(
            "B1: 8 of the last 10 failed",
            main("PPFFPFFFFFF"),
            null,
            Health.BROKEN,
            "failed in 8 of its last 10 runs on the target branch",
            NOW),
        new Row(
            "B2: the last 5 failed",
            main("PPPPPFFFFF"),
            null,
            Health.BROKEN,
            "its last 5 runs on the target branch all failed",
            NOW),
        new Row(
            "F1: passed and failed on one commit within 7 days",
            plus(
                main("PPPPP"),
                onPr("abc", Outcome.FAILED, Duration.ofDays(2)),
                onPr("abc", Outcome.PASSED, Duration.ofDays(2).minusMinutes(5))),
            null,
            Health.FLAKY,
            "passed and failed on the same commit once in 7 days",
            NOW),
        new Row(
            "F1: the same evidence 8 days old does not count",
            plus(
                main("PPPPP"),
                onPr("abc", Outcome.FAILED, Duration.ofDays(8)),
                onPr("abc", Outcome.PASSED, Duration.ofDays(8))),
            null,
            Health.HEALTHY,
            "no failures in the recent runs",
            NOW),
        new Row(
            "F2: passed on a retry",
            main("PPPRPP"),
            null,
            Health.FLAKY,
            "passed on a retry once in 7 days",
            NOW),
        new Row(
            "F3: a failure rate in the flaky band on main",
            main("PPPFPPPPPFPPPPPPFPPP"),
            null,
            Health.FLAKY,
            "failed in 3 of its last 20 runs on the target branch (15 %)",
            NOW),
        new Row(
            "F3: one failure in 20 is not a band",
            main("PPPPPPPPPFPPPPPPPPPP"),
            null,
            Health.HEALTHY,
            "no failures in the recent runs",
            NOW),
        new Row(
            "skipped runs are not runs",
            main("PPPPPFSSFFFSF"),
            null,
            Health.BROKEN,
            "its last 5 runs on the target branch all failed",
            NOW),
        new Row(
            "precedence: broken wins over flaky evidence",
            plus(
                main("FFFFF"),
                onPr("abc", Outcome.FAILED, Duration.ofDays(1)),
                onPr("abc", Outcome.PASSED, Duration.ofDays(1))),
            null,
            Health.BROKEN,
            "its last 5 runs on the target branch all failed",
            NOW),
        new Row(
            "status.timestamp is kept while the status holds",
            main("PPPRPP"),
            flakyBefore,
            Health.FLAKY,
            "passed on a retry once in 7 days",
            EARLIER),
        new Row(
            "no clean recovery yet: it stays flaky with its evidence",
            oldRetryThen("PPPPP"),
            flakyBefore,
            Health.FLAKY,
            "passed on a retry once in 7 days",
            EARLIER),
        new Row(
            "a clean recovery (10 passing runs) makes it healthy again",
            oldRetryThen("PPPPPPPPPP"),
            flakyBefore,
            Health.HEALTHY,
            "recovered: its last 10 runs on main passed",
            NOW));
  }

  /** A retry 9 days ago (outside the window), then {@code outcomes} on main. */
  static List<Observation> oldRetryThen(String outcomes) {
    return plus(
        main(outcomes),
        new Observation(
            "old", "main", null, Outcome.PASSED_ON_RETRY, NOW.minus(Duration.ofDays(9))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rules")
  void rule(Row row) {
    Status status = Classifier.classify(row.runs(), "main", NOW, row.previous());

    assertThat(status.value()).isEqualTo(row.value());
    assertThat(status.reason()).isEqualTo(row.reason());
    assertThat(status.since()).isEqualTo(row.since());
  }
}

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

  private static final TargetBranch MAIN = TargetBranch.of("main");

  record Row(
      String rule,
      TargetBranch target,
      List<Observation> runs,
      Status previous,
      Health value,
      String reason,
      Instant since) {
    Row(
        String rule,
        List<Observation> runs,
        Status previous,
        Health value,
        String reason,
        Instant since) {
      this(rule, MAIN, runs, previous, value, reason, since);
    }

    @Override
    public String toString() {
      return rule;
    }
  }

  /**
   * Runs on main, newest last: P passed, F failed, R passed on retry, S skipped; one hour apart.
   */
  static List<Observation> main(String outcomes) {
    return on("main", null, outcomes);
  }

  /** Runs on {@code branch} (PR {@code pr}), newest last, one hour apart, one commit each. */
  static List<Observation> on(String branch, Long pr, String outcomes) {
    List<Observation> runs = new ArrayList<>();
    for (int i = 0; i < outcomes.length(); i++) {
      Instant at = NOW.minus(Duration.ofHours(outcomes.length() - i));
      runs.add(new Observation(branch + "-" + i, branch, pr, outcome(outcomes.charAt(i)), at));
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

  /** A run on a PR's commit {@code sha} in {@code configuration}, a day ago. */
  static Observation inConfiguration(String sha, Outcome outcome, String configuration) {
    Instant at = NOW.minus(Duration.ofDays(1));
    return new Observation(sha, "feature", 7L, outcome, at, at, configuration);
  }

  /** Runs on main of two configurations, the same commits, newest last, one hour apart. */
  static List<Observation> matrixOnMain(String py310, String py311) {
    List<Observation> runs = new ArrayList<>();
    for (int i = 0; i < py310.length(); i++) {
      Instant at = NOW.minus(Duration.ofHours(py310.length() - i));
      runs.add(
          new Observation(
              "main-" + i, "main", null, outcome(py310.charAt(i)), at, at, "python=3.10"));
      runs.add(
          new Observation(
              "main-" + i,
              "main",
              null,
              outcome(py311.charAt(i)),
              at.plusSeconds(60),
              at,
              "python=3.11"));
    }
    return runs;
  }

  /** Passes on a retry on PRs, one per age in days. */
  static List<Observation> flakesDaysAgo(int... days) {
    return java.util.Arrays.stream(days)
        .mapToObj(d -> onPr("flake-" + d, Outcome.PASSED_ON_RETRY, Duration.ofDays(d)))
        .toList();
  }

  static Stream<Row> rules() {
    Status flakyBefore = new Status(Health.FLAKY, "passed on a retry once in 7 days", EARLIER);
    Status flakyOnPr =
        new Status(Health.FLAKY, "passed and failed on the same commit once in 7 days", EARLIER);
    Status brokenBefore =
        new Status(Health.BROKEN, "its last 5 runs on the target branch all failed", EARLIER);
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
            "10 clean runs are no recovery from flaky: 14 days without a flake are",
            oldRetryThen("PPPPPPPPPP"),
            flakyBefore,
            Health.FLAKY,
            "passed on a retry once in 7 days",
            EARLIER),
        new Row(
            "a test that flaked often recovers 14 days after its last flake",
            plus(
                main("PPPPPPPPPP"),
                flakesDaysAgo(15, 16, 17, 18, 19, 20).toArray(Observation[]::new)),
            flakyBefore,
            Health.HEALTHY,
            "recovered: no flake in 15 days (at least 14 and three times its mean interval between"
                + " flakes: 6 in 28 days)",
            NOW),
        new Row(
            "a rare flake needs three of its intervals: 2 in 28 days is 42 days",
            plus(main("PPPPPPPPPP"), flakesDaysAgo(16, 20).toArray(Observation[]::new)),
            flakyBefore,
            Health.FLAKY,
            "passed on a retry once in 7 days",
            EARLIER),
        new Row(
            "no flake in 28 days is a recovery",
            plus(main("PPPPPPPPPP"), flakesDaysAgo(29).toArray(Observation[]::new)),
            flakyBefore,
            Health.HEALTHY,
            "recovered: no flake in 28 days",
            NOW),
        new Row(
            "a failure on a PR that its commit never passed is no flake (the PR broke it)",
            plus(
                main("PPPPPPPPPP"),
                onPr("x", Outcome.FAILED, Duration.ofDays(3)),
                onPr("y", Outcome.FAILED, Duration.ofDays(2))),
            flakyOnPr,
            Health.HEALTHY,
            "recovered: no flake in 28 days",
            NOW),
        new Row(
            "flagged in PR CI 8 days ago and 10 clean PR runs since: still flaky",
            plus(
                on("feature", 7L, "PPPPPPPPPP"),
                onPr("abc", Outcome.FAILED, Duration.ofDays(8)),
                onPr("abc", Outcome.PASSED, Duration.ofDays(8))),
            flakyOnPr,
            Health.FLAKY,
            "passed and failed on the same commit once in 7 days",
            EARLIER),
        new Row(
            "a CI matrix's two jobs on one commit are no retry of each other",
            plus(
                main("PPPPP"),
                inConfiguration("abc", Outcome.FAILED, "python=3.10"),
                inConfiguration("abc", Outcome.PASSED, "python=3.11")),
            null,
            Health.HEALTHY,
            "no failures in the recent runs",
            NOW),
        new Row(
            "the same job re-run on one commit is a retry",
            plus(
                main("PPPPP"),
                inConfiguration("abc", Outcome.FAILED, "python=3.10"),
                inConfiguration("abc", Outcome.PASSED, "python=3.10")),
            null,
            Health.FLAKY,
            "passed and failed on the same commit once in 7 days",
            NOW),
        new Row(
            "failing in one configuration only is broken there, the other's passes hide nothing",
            matrixOnMain("FFFFF", "PPPPP"),
            null,
            Health.BROKEN,
            "its last 5 runs on the target branch all failed (in python=3.10)",
            NOW),
        new Row(
            "failures in an outage are no evidence",
            plus(
                main("PPPPP"),
                onPr("abc", Outcome.FAILED_IN_OUTAGE, Duration.ofDays(1)),
                onPr("abc", Outcome.PASSED, Duration.ofDays(1))),
            null,
            Health.HEALTHY,
            "no failures in the recent runs",
            NOW),
        new Row(
            "an outage in a failure streak neither breaks nor makes it",
            plus(
                main("PPPPPFFFFF"),
                new Observation("o", "main", null, Outcome.FAILED_IN_OUTAGE, NOW.minusSeconds(60))),
            null,
            Health.BROKEN,
            "its last 5 runs on the target branch all failed",
            NOW),
        new Row(
            "broken then fixed: an ended failure streak is not flaky (F3 needs alternation)",
            main("FFFFFPP"),
            brokenBefore,
            Health.BROKEN,
            "its last 5 runs on the target branch all failed",
            EARLIER),
        new Row(
            "broken then fixed: healthy after 10 passing runs, never flaky",
            main("FFFFFPPPPPPPPPP"),
            brokenBefore,
            Health.HEALTHY,
            "recovered: its last 10 runs on main passed",
            NOW),
        new Row(
            "F3: a rate in the band with one pass-to-fail change is not flaky",
            main("PPPPPPPPPPPPPPPPFFPP"),
            null,
            Health.HEALTHY,
            "no failures in the recent runs",
            NOW),
        new Row(
            "no target_branch nor default branch known: pushes to master are target runs",
            TargetBranch.conventional(),
            on("master", null, "PPPPPFFFFF"),
            null,
            Health.BROKEN,
            "its last 5 runs on the target branch all failed",
            NOW),
        new Row(
            "no target_branch set: PR runs and trainyard-merge runs are not target runs",
            TargetBranch.conventional(),
            plus(
                on("feature", 7L, "FFFFF"),
                on("trainyard-merge/master/1", null, "FFFFF").toArray(Observation[]::new)),
            null,
            Health.HEALTHY,
            "no failures in the recent runs",
            NOW),
        new Row(
            "no target_branch set: a broken test recovers on master",
            TargetBranch.conventional(),
            on("master", null, "FFFFFPPPPPPPPPP"),
            brokenBefore,
            Health.HEALTHY,
            "recovered: its last 10 runs on main, master or develop passed",
            NOW),
        new Row(
            "no target_branch set: a feature branch pushed without a PR is not the target",
            TargetBranch.conventional(),
            on("feature/login", null, "PPPPPFFFFF"),
            null,
            Health.HEALTHY,
            "no failures in the recent runs",
            NOW),
        new Row(
            "no target_branch set: GitHub's merge-queue branches are not the target",
            TargetBranch.conventional(),
            on("gh-readonly-queue/main/pr-7-abc", null, "PPPPPFFFFF"),
            null,
            Health.HEALTHY,
            "no failures in the recent runs",
            NOW),
        new Row(
            "the source host's default branch is the target",
            TargetBranch.of("trunk"),
            on("trunk", null, "PPPPPFFFFF"),
            null,
            Health.BROKEN,
            "its last 5 runs on the target branch all failed",
            NOW),
        new Row(
            "refs/heads/main is main",
            on("refs/heads/main", null, "PPPPPFFFFF"),
            null,
            Health.BROKEN,
            "its last 5 runs on the target branch all failed",
            NOW),
        new Row(
            "a PR's run on the target's name is not a target run",
            on("main", 9L, "PPPPPFFFFF"),
            null,
            Health.HEALTHY,
            "no failures in the recent runs",
            NOW),
        new Row(
            "B2 not while the same commits passed: a streak rescued by re-runs is flaky",
            plus(
                main("PPPPPFFFFF"),
                new Observation("main-6", "main", null, Outcome.PASSED, NOW.minusSeconds(60)),
                new Observation("main-8", "main", null, Outcome.PASSED, NOW.minusSeconds(30))),
            null,
            Health.FLAKY,
            "passed and failed on the same commit 2 times in 7 days",
            NOW),
        new Row(
            "a flaky test stays flaky through a streak of 5",
            main("PPFPFPPFPPFFFFF"),
            flakyBefore,
            Health.FLAKY,
            "failed in 8 of its last 15 runs on the target branch (53 %)",
            EARLIER),
        new Row(
            "a flaky test is broken after 10 failures in a row",
            main("PFPFPFFFFFFFFFF"),
            flakyBefore,
            Health.BROKEN,
            "its last 10 runs on the target branch all failed",
            NOW),
        new Row(
            "a broken test is not flaky again on one pass after its streak",
            main("PFPFPPFFFFFPF"),
            brokenBefore,
            Health.BROKEN,
            "its last 5 runs on the target branch all failed",
            EARLIER),
        new Row(
            "a broken test is flaky again once half of its last 10 runs passed",
            main("PFPFPPFFFFFPPFPFPP"),
            brokenBefore,
            Health.FLAKY,
            "failed in 9 of its last 18 runs on the target branch (50 %)",
            NOW),
        new Row(
            "a slow pipeline of an older commit arriving last is not the newest run",
            plus(
                main("PPFFFFFPPPPPPPPP"),
                new Observation(
                    "late",
                    "main",
                    null,
                    Outcome.FAILED,
                    NOW.minusSeconds(60),
                    NOW.minus(Duration.ofMinutes(570)))),
            brokenBefore,
            Health.BROKEN,
            "its last 5 runs on the target branch all failed",
            EARLIER),
        new Row(
            "re-runs of one commit are one observation, not a streak",
            plus(
                main("PPPPP"),
                new Observation("x", "main", null, Outcome.FAILED, NOW.minusSeconds(50)),
                new Observation("x", "main", null, Outcome.FAILED, NOW.minusSeconds(40)),
                new Observation("x", "main", null, Outcome.FAILED, NOW.minusSeconds(30)),
                new Observation("x", "main", null, Outcome.FAILED, NOW.minusSeconds(20)),
                new Observation("x", "main", null, Outcome.FAILED, NOW.minusSeconds(10))),
            null,
            Health.HEALTHY,
            "no failures in the recent runs",
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
    Status status = Classifier.classify(row.runs(), row.target(), NOW, row.previous());

    assertThat(status.value()).isEqualTo(row.value());
    assertThat(status.reason()).isEqualTo(row.reason());
    assertThat(status.since()).isEqualTo(row.since());
  }
}

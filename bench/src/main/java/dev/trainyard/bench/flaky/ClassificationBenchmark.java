package dev.trainyard.bench.flaky;

import dev.trainyard.flaky.cases.RecentRun;
import dev.trainyard.flaky.cases.RunHistory;
import dev.trainyard.flaky.classify.Classifier;
import dev.trainyard.flaky.classify.Health;
import dev.trainyard.flaky.classify.Status;
import dev.trainyard.flaky.classify.TargetBranch;
import dev.trainyard.flaky.ingest.Outage;
import dev.trainyard.flaky.ingest.Outcome;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * The real classifier at CI volume, beside the previous release's classifier in the same run (its
 * {@code flaky-tests-service} jar, read out of the release's standalone jar and loaded on its own).
 * One test at a time, through {@link RunHistory} and {@link Classifier} as ingestion calls them, in
 * three setups:
 *
 * <ul>
 *   <li><b>A</b>: CI on {@code main} only, one new commit an hour;
 *   <li><b>B</b>: A plus 4 pull-request runs an hour (each a new commit), and half of the red
 *       builds re-run once on the same commit (each run its own upload);
 *   <li><b>C</b>: B, and the runner retries a failed test once inside the run (a pass on the retry
 *       is reported as one, Surefire's {@code flakyFailure}).
 * </ul>
 *
 * <p>Tests: flaky at 0.5 %, 2 % and 10 % a run; broken (healthy for the first week, then failing
 * every run from a commit of {@code main} on); never failing, under suite-wide infrastructure
 * failures in 1 % and 3 % of the runs (every one of the suite's {@value #SUITE} tests fails; a
 * re-run passes). The first week is warm-up; {@value #WEEKS} weeks are counted, over {@value
 * #SEEDS} seeds. Printed per test and setup, for each classifier: the detection delay (hours to be
 * listed flaky; for the broken test, target commits from the break to being listed broken), the
 * share of the counted time listed as what the test is, status changes a week, and how many runs
 * its history held at the end (what every upload of the test reads and writes).
 *
 * <p>Arguments: the previous release's standalone jar.
 */
public final class ClassificationBenchmark {
  static final int WEEKS = 8;
  static final int SEEDS = 10;
  static final int SUITE = 300;
  static final int PR_RUNS_PER_HOUR = 4;
  static final double RERUN = 0.5;
  private static final Instant START = Instant.parse("2026-01-05T00:00:00Z");
  private static final int WARM_UP_HOURS = 24 * 7;
  private static final String MAIN = "main";

  /** A classifier: its history and its status, fed one run at a time. */
  interface Subject {
    /** Adds {@code run} ({@code outage}: its upload reads as one) and answers the new status. */
    Health add(RecentRun run, boolean outage);

    /** How many runs its history holds. */
    int kept();
  }

  /** What a test is, and how it fails. */
  record Truth(String name, Health listed, double flakeRate, double outageRate, boolean broken) {}

  /** The setups. */
  enum Setup {
    A(0, 0, false),
    B(PR_RUNS_PER_HOUR, RERUN, false),
    C(PR_RUNS_PER_HOUR, RERUN, true);

    final int prRuns;
    final double rerun;
    final boolean retry;

    Setup(int prRuns, double rerun, boolean retry) {
      this.prRuns = prRuns;
      this.rerun = rerun;
      this.retry = retry;
    }
  }

  /**
   * What one test went through: delay (-1: never), hours listed right, all hours, changes, and the
   * runs its history held at the end.
   */
  record Result(double delay, long right, long hours, int changes, int kept) {}

  private ClassificationBenchmark() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      System.err.println("usage: classification <previous release's standalone jar>");
      System.exit(2);
    }
    Released released = Released.load(Path.of(args[0]));
    List<Truth> truths =
        List.of(
            new Truth("flaky 0.5 %", Health.FLAKY, 0.005, 0, false),
            new Truth("flaky 2 %", Health.FLAKY, 0.02, 0, false),
            new Truth("flaky 10 %", Health.FLAKY, 0.10, 0, false),
            new Truth("broken", Health.BROKEN, 0, 0, true),
            new Truth("never fails, 1 % outages", Health.HEALTHY, 0, 0.01, false),
            new Truth("never fails, 3 % outages", Health.HEALTHY, 0, 0.03, false));
    System.out.println(
        "| test | setup | detection, previous | now | listed right, previous | now"
            + " | status changes / week, previous | now | runs kept, previous | now |");
    System.out.println("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (Truth truth : truths) {
      for (Setup setup : Setup.values()) {
        Result[] before = new Result[SEEDS];
        Result[] now = new Result[SEEDS];
        for (int seed = 1; seed <= SEEDS; seed++) {
          before[seed - 1] = simulate(truth, setup, seed, released.subject());
          now[seed - 1] = simulate(truth, setup, seed, current());
        }
        System.out.printf(
            Locale.ROOT,
            "| %s | %s | %s | %s | %.1f %% | %.1f %% | %.2f | %.2f | %.0f | %.0f |%n",
            truth.name(),
            setup,
            delay(truth, before),
            delay(truth, now),
            listedRight(before),
            listedRight(now),
            changesPerWeek(before),
            changesPerWeek(now),
            kept(before),
            kept(now));
      }
    }
  }

  /** Today's classifier, as ingestion calls it. */
  static Subject current() {
    TargetBranch main = TargetBranch.of(MAIN);
    return new Subject() {
      List<RecentRun> runs = List.of();
      Status status;

      @Override
      public Health add(RecentRun run, boolean outage) {
        List<Outcome> suite = new ArrayList<>(Collections.nCopies(SUITE - 1, Outcome.PASSED));
        suite.add(run.outcome());
        if (outage) {
          Collections.fill(suite, Outcome.FAILED);
        }
        RecentRun kept =
            new RecentRun(
                run.uploadId(),
                run.commitSha(),
                run.branch(),
                run.prNumber(),
                Outage.inHistory(run.outcome(), Outage.of(suite)),
                run.at());
        runs = RunHistory.add(runs, kept, main, run.at());
        status = Classifier.classify(RunHistory.observations(runs), main, run.at(), status);
        return status.value();
      }

      @Override
      public int kept() {
        return runs.size();
      }
    };
  }

  static Result simulate(Truth truth, Setup setup, long seed, Subject subject) {
    SplittableRandom random = new SplittableRandom(seed * 7919 + setup.ordinal());
    Health listed = Health.HEALTHY;
    double delay = -1;
    long right = 0;
    long hours = 0;
    int changes = 0;
    int upload = 0;
    int mainCommitsSinceBreak = 0;
    int hoursInAll = WARM_UP_HOURS + 24 * 7 * WEEKS;
    for (int hour = 0; hour < hoursInAll; hour++) {
      boolean counted = hour >= WARM_UP_HOURS;
      boolean brokenNow = truth.broken() && counted;
      Instant at = START.plus(Duration.ofHours(hour));
      List<Commit> commits = new ArrayList<>();
      commits.add(new Commit("main-" + hour, MAIN, null, at));
      for (int pr = 0; pr < setup.prRuns; pr++) {
        commits.add(
            new Commit(
                "pr-" + pr + "-" + hour,
                "feature-" + pr,
                (long) pr + 1,
                at.plus(Duration.ofMinutes(12L * (pr + 1)))));
      }
      for (Commit commit : commits) {
        if (brokenNow && commit.pr() == null) {
          mainCommitsSinceBreak++;
        }
        boolean red = false;
        for (int attempt = 0; attempt < 2 && (attempt == 0 || red); attempt++) {
          if (attempt == 1 && random.nextDouble() >= setup.rerun) {
            break;
          }
          boolean outage = random.nextDouble() < truth.outageRate();
          Outcome outcome = outage ? Outcome.FAILED : run(truth, setup, brokenNow, random);
          red = outcome == Outcome.FAILED;
          RecentRun run =
              new RecentRun(
                  "u" + upload++,
                  commit.sha(),
                  commit.branch(),
                  commit.pr(),
                  outcome,
                  commit.at().plus(Duration.ofMinutes(5L * attempt)));
          Health next = subject.add(run, outage);
          if (counted && next != listed) {
            changes++;
          }
          listed = next;
          if (delay < 0 && listed == truth.listed() && truth.listed() != Health.HEALTHY) {
            if (truth.broken() && brokenNow) {
              delay = mainCommitsSinceBreak;
            } else if (!truth.broken()) {
              delay = hour;
            }
          }
        }
      }
      if (counted) {
        hours++;
        right += listed == truth.listed() ? 1 : 0;
      }
    }
    return new Result(delay, right, hours, changes, subject.kept());
  }

  /** How the test ends in one run of the suite (with the runner's own retry in setup C). */
  private static Outcome run(Truth truth, Setup setup, boolean broken, SplittableRandom random) {
    if (broken) {
      return Outcome.FAILED;
    }
    if (random.nextDouble() >= truth.flakeRate()) {
      return Outcome.PASSED;
    }
    if (setup.retry && random.nextDouble() >= truth.flakeRate()) {
      return Outcome.PASSED_ON_RETRY;
    }
    return Outcome.FAILED;
  }

  private record Commit(String sha, String branch, Long pr, Instant at) {}

  private static String delay(Truth truth, Result[] results) {
    if (truth.listed() == Health.HEALTHY) {
      return "—";
    }
    long never = java.util.Arrays.stream(results).filter(r -> r.delay() < 0).count();
    double mean =
        java.util.Arrays.stream(results)
            .filter(r -> r.delay() >= 0)
            .mapToDouble(Result::delay)
            .average()
            .orElse(Double.NaN);
    String unit = truth.broken() ? " commits" : " h";
    if (never == results.length) {
      return "never";
    }
    return String.format(Locale.ROOT, "%.0f%s", mean, unit)
        + (never > 0 ? " (never in " + never + "/" + results.length + ")" : "");
  }

  private static double listedRight(Result[] results) {
    return 100
        * java.util.Arrays.stream(results).mapToDouble(r -> r.right() / (double) r.hours()).sum()
        / results.length;
  }

  private static double kept(Result[] results) {
    return java.util.Arrays.stream(results).mapToInt(Result::kept).average().orElse(0);
  }

  private static double changesPerWeek(Result[] results) {
    return java.util.Arrays.stream(results).mapToDouble(r -> r.changes() / (double) WEEKS).sum()
        / results.length;
  }

  /**
   * The previous release's classifier: its {@code flaky-tests-service} jar out of its standalone
   * jar, on a class loader of its own (the classes have the same names as today's). It knows no
   * outages: an outage's failures are failures to it.
   */
  record Released(
      Method add,
      Method observations,
      Method classify,
      Method value,
      java.lang.reflect.Constructor<?> recentRun,
      Object main,
      Class<?> outcome) {

    static Released load(Path standaloneJar) throws IOException, ReflectiveOperationException {
      Path lib = Files.createTempFile("trainyard-flaky-released", ".jar");
      lib.toFile().deleteOnExit();
      try (JarFile jar = new JarFile(standaloneJar.toFile())) {
        JarEntry entry =
            jar.stream()
                .filter(e -> e.getName().matches("BOOT-INF/lib/flaky-tests-service-[^/]*\\.jar"))
                .findFirst()
                .orElseThrow(
                    () -> new IOException(standaloneJar + " holds no flaky-tests-service jar"));
        try (InputStream in = jar.getInputStream(entry)) {
          Files.copy(in, lib, StandardCopyOption.REPLACE_EXISTING);
        }
      }
      ClassLoader loader =
          new URLClassLoader(new URL[] {lib.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
      Class<?> history = loader.loadClass("dev.trainyard.flaky.cases.RunHistory");
      Class<?> run = loader.loadClass("dev.trainyard.flaky.cases.RecentRun");
      Class<?> classifier = loader.loadClass("dev.trainyard.flaky.classify.Classifier");
      Class<?> target = loader.loadClass("dev.trainyard.flaky.classify.TargetBranch");
      Class<?> status = loader.loadClass("dev.trainyard.flaky.classify.Status");
      Class<?> outcome = loader.loadClass("dev.trainyard.flaky.ingest.Outcome");
      return new Released(
          history.getMethod("add", List.class, run, target, Instant.class),
          history.getMethod("observations", List.class),
          classifier.getMethod("classify", List.class, target, Instant.class, status),
          status.getMethod("value"),
          run.getConstructor(
              String.class,
              String.class,
              String.class,
              Long.class,
              outcome,
              Instant.class,
              Instant.class),
          target.getMethod("of", String.class).invoke(null, MAIN),
          outcome);
    }

    Subject subject() {
      return new Subject() {
        Object runs = List.of();
        Object status;

        @Override
        public Health add(RecentRun run, boolean outage) {
          try {
            @SuppressWarnings({"unchecked", "rawtypes"})
            Object kept =
                recentRun.newInstance(
                    run.uploadId(),
                    run.commitSha(),
                    run.branch(),
                    run.prNumber(),
                    Enum.valueOf((Class) outcome, run.outcome().name()),
                    run.at(),
                    run.commitAt());
            runs = Released.this.add.invoke(null, runs, kept, main, run.at());
            status = classify.invoke(null, observations.invoke(null, runs), main, run.at(), status);
            return Health.valueOf(value.invoke(status).toString());
          } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("the released classifier failed", e);
          }
        }

        @Override
        public int kept() {
          return ((List<?>) runs).size();
        }
      };
    }
  }
}

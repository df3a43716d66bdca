package dev.trainyard.flaky.ingest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * One test case's outcome in one upload. A test reported several times in one file (a runner that
 * re-runs a failed test by repeating its test case, as gotestsum does) is one run: failed and
 * passed there is a pass on retry. The same test id in two files of one upload is not a retry:
 * those are usually two configurations (pytest under two interpreters, one job per shard) that the
 * upload did not tell apart with a variant, so a failure in either stays a failure, and the
 * collision is named in the upload's answer.
 */
public record MergedResult(
    String testId,
    String name,
    String classname,
    String parent,
    String filePath,
    String variant,
    Outcome outcome,
    long durationMillis,
    String message) {

  /** The first {@value #NAMED_COLLISIONS} collisions are named in the upload's answer. */
  static final int NAMED_COLLISIONS = 20;

  /** The upload's results by test id in first-seen order, and the ids reported by several files. */
  public record Merged(List<MergedResult> results, int collisions, List<String> named) {}

  /**
   * Merges the results of {@code reports}; {@code id} gives a result's test id from its report's
   * variant ({@code variant} applied to the report) and the result.
   */
  public static Merged merge(
      List<ParsedReport> reports,
      java.util.function.Function<ParsedReport, String> variant,
      BiFunction<String, TestCaseResult, String> id) {
    Map<String, MergedResult> byId = new LinkedHashMap<>();
    Map<String, String> fileOf = new LinkedHashMap<>();
    Map<String, String> collided = new LinkedHashMap<>();
    for (ParsedReport report : reports) {
      String reportVariant = variant.apply(report);
      Map<String, MergedResult> inFile = new LinkedHashMap<>();
      for (TestCaseResult r : report.results()) {
        String testId = id.apply(reportVariant, r);
        inFile.merge(testId, of(testId, reportVariant, r), MergedResult::retried);
      }
      for (MergedResult r : inFile.values()) {
        MergedResult earlier = byId.get(r.testId());
        if (earlier == null) {
          byId.put(r.testId(), r);
          fileOf.put(r.testId(), report.fileName());
        } else if (isAttempt(report.fileName()) || isAttempt(fileOf.get(r.testId()))) {
          byId.put(r.testId(), earlier.retried(r)); // Bazel's attempts of one run
        } else {
          byId.put(r.testId(), earlier.collided(r));
          collided.putIfAbsent(
              r.testId(),
              r.describe() + " in " + fileOf.get(r.testId()) + " and " + report.fileName());
        }
      }
    }
    return new Merged(
        new ArrayList<>(byId.values()),
        collided.size(),
        collided.values().stream().limit(NAMED_COLLISIONS).toList());
  }

  /**
   * Whether {@code fileName} is one of Bazel's earlier attempts of a test target ({@code
   * --flaky_test_attempts} writes {@code test_attempts/attempt_N.xml} beside the last attempt's
   * {@code test.xml}): its results are attempts of the same run, so a failure there and a pass in
   * {@code test.xml} is a pass on retry, not two configurations (which stored it failed).
   */
  static boolean isAttempt(String fileName) {
    return fileName != null && ATTEMPT.matcher(fileName).matches();
  }

  private static final java.util.regex.Pattern ATTEMPT =
      java.util.regex.Pattern.compile("(?:.*[/\\\\])?attempt_\\d+\\.xml");

  private static MergedResult of(String testId, String variant, TestCaseResult r) {
    return new MergedResult(
        testId,
        r.name(),
        r.classname(),
        r.parent(),
        r.filePath(),
        variant,
        r.outcome(),
        r.durationMillis(),
        r.message());
  }

  private String describe() {
    return classname == null ? name : classname + " " + name;
  }

  MergedResult retried(MergedResult other) {
    return with(other, retry(outcome, other.outcome));
  }

  MergedResult collided(MergedResult other) {
    return with(other, worst(outcome, other.outcome));
  }

  private MergedResult with(MergedResult other, Outcome combined) {
    return new MergedResult(
        testId,
        name,
        classname,
        parent,
        filePath,
        variant,
        combined,
        durationMillis + other.durationMillis,
        message != null ? message : other.message);
  }

  /** Two results of one file: a pass and a failure is a pass on retry. */
  static Outcome retry(Outcome a, Outcome b) {
    if (a == Outcome.SKIPPED) {
      return b;
    }
    if (b == Outcome.SKIPPED || a == b) {
      return a;
    }
    return Outcome.PASSED_ON_RETRY; // a pass and a failure, or a retry and anything that ran
  }

  /** Two files' results for one id: a failure in either is a failure, never a retry. */
  static Outcome worst(Outcome a, Outcome b) {
    for (Outcome o : List.of(Outcome.FAILED, Outcome.PASSED_ON_RETRY, Outcome.PASSED)) {
      if (a == o || b == o) {
        return o;
      }
    }
    return Outcome.SKIPPED;
  }
}

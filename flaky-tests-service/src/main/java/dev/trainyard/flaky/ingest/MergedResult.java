package dev.trainyard.flaky.ingest;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One test case's outcome in one upload. A test reported several times in an upload (several files,
 * a runner that re-runs by repeating the test case) is one run: failed and passed in the same
 * upload is a pass on retry.
 */
public record MergedResult(
    String testId,
    String name,
    String classname,
    String parent,
    String filePath,
    Outcome outcome,
    long durationMillis,
    String message) {

  /** The upload's results by test id, in first-seen order. */
  public static List<MergedResult> merge(
      Collection<TestCaseResult> results, java.util.function.Function<TestCaseResult, String> id) {
    Map<String, MergedResult> byId = new LinkedHashMap<>();
    for (TestCaseResult r : results) {
      String testId = id.apply(r);
      MergedResult next =
          new MergedResult(
              testId,
              r.name(),
              r.classname(),
              r.parent(),
              r.filePath(),
              r.outcome(),
              r.durationMillis(),
              r.message());
      byId.merge(testId, next, MergedResult::with);
    }
    return new ArrayList<>(byId.values());
  }

  MergedResult with(MergedResult other) {
    return new MergedResult(
        testId,
        name,
        classname,
        parent,
        filePath,
        combine(outcome, other.outcome),
        durationMillis + other.durationMillis,
        message != null ? message : other.message);
  }

  static Outcome combine(Outcome a, Outcome b) {
    if (a == Outcome.SKIPPED) {
      return b;
    }
    if (b == Outcome.SKIPPED || a == b) {
      return a;
    }
    return Outcome.PASSED_ON_RETRY; // a pass and a failure, or a retry and anything that ran
  }
}

package dev.trainyard.flaky.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A test reported several times in one file is one run, a pass and a failure there a retry; the
 * same test id in two files is two configurations, where a failure stays a failure.
 */
class MergedResultTest {

  @ParameterizedTest(name = "{0} + {1} in one file = {2}")
  @CsvSource({
    "PASSED, PASSED, PASSED",
    "FAILED, FAILED, FAILED",
    "PASSED, FAILED, PASSED_ON_RETRY",
    "FAILED, PASSED, PASSED_ON_RETRY",
    "PASSED_ON_RETRY, PASSED, PASSED_ON_RETRY",
    "SKIPPED, FAILED, FAILED",
    "PASSED, SKIPPED, PASSED",
    "SKIPPED, SKIPPED, SKIPPED"
  })
  void outcomesOfOneFileCombineAsRetries(Outcome first, Outcome second, Outcome merged) {
    MergedResult.Merged upload =
        merge(report("r.xml", null, result(first), result(second), other()));

    assertThat(upload.results()).hasSize(2);
    assertThat(upload.results().get(0).outcome()).isEqualTo(merged);
    assertThat(upload.collisions()).isZero();
  }

  @ParameterizedTest(name = "{0} in one file, {1} in another = {2}")
  @CsvSource({
    "PASSED, PASSED, PASSED",
    "FAILED, PASSED, FAILED",
    "PASSED, FAILED, FAILED",
    "PASSED_ON_RETRY, PASSED, PASSED_ON_RETRY",
    "PASSED_ON_RETRY, FAILED, FAILED",
    "SKIPPED, PASSED, PASSED",
    "SKIPPED, SKIPPED, SKIPPED"
  })
  void theSameIdInTwoFilesIsNeverARetry(Outcome first, Outcome second, Outcome merged) {
    MergedResult.Merged upload =
        merge(report("py311.xml", null, result(first)), report("py310.xml", null, result(second)));

    assertThat(upload.results()).hasSize(1);
    assertThat(upload.results().get(0).outcome()).isEqualTo(merged);
    assertThat(upload.collisions()).isEqualTo(1);
    assertThat(upload.named()).containsExactly("a.B t in py311.xml and py310.xml");
  }

  /**
   * Issue 49, item 4: Bazel's {@code --flaky_test_attempts} writes the failed attempts to {@code
   * test_attempts/attempt_N.xml} and the last to {@code test.xml}; uploaded together, a pass on the
   * retry was stored failed (two files: two configurations).
   */
  @ParameterizedTest(name = "{0}: {1} then {2} in test.xml = {3}")
  @CsvSource({
    "attempt_1.xml, FAILED, PASSED, PASSED_ON_RETRY",
    "test_attempts/attempt_2.xml, FAILED, FAILED, FAILED",
    "pkg\\test_attempts\\attempt_1.xml, FAILED, PASSED, PASSED_ON_RETRY",
    "attempt_1.xml, PASSED, PASSED, PASSED"
  })
  void bazelsAttemptFilesAreAttemptsOfOneRun(
      String attempt, Outcome first, Outcome last, Outcome merged) {
    MergedResult.Merged upload =
        merge(report(attempt, null, result(first)), report("test.xml", null, result(last)));

    assertThat(upload.results()).extracting(MergedResult::outcome).containsExactly(merged);
    assertThat(upload.collisions()).isZero();
  }

  @Test
  void aFileMerelyNamedLikeAnAttemptElsewhereIsStillAnotherConfiguration() {
    assertThat(MergedResult.isAttempt("attempt_1.xml.bak")).isFalse();
    assertThat(MergedResult.isAttempt("my_attempt_1.xml")).isFalse();
    assertThat(MergedResult.isAttempt("test.xml")).isFalse();
  }

  @Test
  void aVariantPerFileKeepsConfigurationsApart() {
    MergedResult.Merged upload =
        merge(
            report("py311.xml", "py311", result(Outcome.FAILED)),
            report("py310.xml", "py310", result(Outcome.PASSED)));

    assertThat(upload.results())
        .extracting(MergedResult::variant, MergedResult::outcome)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("py311", Outcome.FAILED),
            org.assertj.core.groups.Tuple.tuple("py310", Outcome.PASSED));
    assertThat(upload.collisions()).isZero();
  }

  private static MergedResult.Merged merge(ParsedReport... reports) {
    return MergedResult.merge(
        List.of(reports),
        r -> r.variant() == null ? "" : r.variant(),
        (variant, r) -> variant + "/" + r.name());
  }

  private static ParsedReport report(String file, String variant, TestCaseResult... results) {
    return new ParsedReport(
        file, variant, new byte[32], List.of(results), UploadLimits.Skipped.NONE, null, null, null);
  }

  private static TestCaseResult result(Outcome outcome) {
    return new TestCaseResult("S", "a.B", "t", null, outcome, 5, 0, null);
  }

  private static TestCaseResult other() {
    return new TestCaseResult("S", "a.B", "other", null, Outcome.PASSED, 5, 0, null);
  }
}

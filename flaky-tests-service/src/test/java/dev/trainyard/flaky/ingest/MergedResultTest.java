package dev.trainyard.flaky.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A test reported several times in one upload is one run; a pass and a failure is a retry. */
class MergedResultTest {

  @ParameterizedTest(name = "{0} + {1} = {2}")
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
  void outcomesOfOneUploadCombine(Outcome first, Outcome second, Outcome merged) {
    List<MergedResult> results =
        MergedResult.merge(List.of(result(first), result(second), result2()), r -> r.name());

    assertThat(results).hasSize(2);
    assertThat(results.get(0).outcome()).isEqualTo(merged);
  }

  private static TestCaseResult result(Outcome outcome) {
    return new TestCaseResult("S", "a.B", "t", null, outcome, 5, 0, null);
  }

  private static TestCaseResult result2() {
    return new TestCaseResult("S", "a.B", "other", null, Outcome.PASSED, 5, 0, null);
  }
}

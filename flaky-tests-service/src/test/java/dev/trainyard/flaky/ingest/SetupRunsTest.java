package dev.trainyard.flaky.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Which setup tests an upload's runs pass: one row per producer's way of naming them. */
class SetupRunsTest {
  /** Ids made readable: the parts joined, so a row can name the id it expects. */
  private static final SetupRuns.Identity IDS =
      (file, classname, parent, name, variant) ->
          file + "|" + classname + "|" + parent + "|" + name + "|" + variant;

  record Row(String why, List<MergedResult> upload, String stored, boolean passed) {
    @Override
    public String toString() {
      return why;
    }
  }

  private static MergedResult ran(
      String file, String classname, String parent, String name, Outcome outcome) {
    return new MergedResult(
        IDS.of(file, classname, parent, name, null),
        name,
        classname,
        parent,
        file,
        null,
        outcome,
        1,
        null);
  }

  static Stream<Row> rows() {
    MergedResult surefire =
        ran(null, "com.acme.LedgerTest", "com.acme.LedgerTest", "books", Outcome.PASSED);
    return Stream.of(
        new Row(
            "Surefire's nameless test case: the class ran without it",
            List.of(surefire),
            "null|com.acme.LedgerTest|com.acme.LedgerTest|(class setup)|null",
            true),
        new Row(
            "Gradle's classMethod",
            List.of(surefire),
            "null|com.acme.LedgerTest|com.acme.LedgerTest|classMethod|null",
            true),
        new Row(
            "JUnit 4's initializationError",
            List.of(surefire),
            "null|com.acme.LedgerTest|com.acme.LedgerTest|initializationError|null",
            true),
        new Row(
            "a suite's own failure: a test of the suite ran",
            List.of(ran(null, "com.acme.A", "checkout", "pays", Outcome.FAILED)),
            "null|checkout|checkout|(suite setup)|null",
            true),
        new Row(
            "a pytest module that failed to collect: a test of a class in it ran",
            List.of(
                ran(
                    "tests/test_cart.py",
                    "tests.test_cart.TestCart",
                    "pytest",
                    "test_adds",
                    Outcome.PASSED)),
            "null|null|pytest|tests.test_cart|null",
            true),
        new Row(
            "the setup failed in this upload: it reports itself, no pass",
            List.of(
                surefire,
                ran(
                    null,
                    "com.acme.LedgerTest",
                    "com.acme.LedgerTest",
                    "(class setup)",
                    Outcome.FAILED)),
            "null|com.acme.LedgerTest|com.acme.LedgerTest|(class setup)|null",
            false),
        new Row(
            "a skipped test is no run of its class",
            List.of(ran(null, "com.acme.LedgerTest", "com.acme.LedgerTest", "x", Outcome.SKIPPED)),
            "null|com.acme.LedgerTest|com.acme.LedgerTest|(class setup)|null",
            false),
        new Row(
            "another class's setup is not passed",
            List.of(surefire),
            "null|com.acme.OtherTest|com.acme.OtherTest|(class setup)|null",
            false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  void passesTheSetupTestsOfWhatRan(Row row) {
    List<MergedResult> passes =
        SetupRuns.passes(
            row.upload(), IDS, ids -> ids.contains(row.stored()) ? Set.of(row.stored()) : Set.of());

    assertThat(passes.stream().anyMatch(p -> p.testId().equals(row.stored())))
        .isEqualTo(row.passed());
    assertThat(passes).allMatch(p -> p.outcome() == Outcome.PASSED);
  }

  @org.junit.jupiter.api.Test
  void testsThatNeverFailedAreNotCreated() {
    MergedResult surefire =
        ran(null, "com.acme.LedgerTest", "com.acme.LedgerTest", "books", Outcome.PASSED);

    assertThat(SetupRuns.passes(List.of(surefire), IDS, ids -> Set.of())).isEmpty();
  }
}

package dev.trainyard.flaky.ingest;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * An upload in which a large share of the test cases that ran failed: a database that did not come
 * up, a registry that refused, a runner out of disk. Its failures say nothing about each test, and
 * taken as evidence one such upload and a passing re-run would list the whole suite flaky for a
 * week (and, with auto-quarantine, excuse real failures among it). Its runs are kept as {@link
 * Outcome#FAILED_IN_OUTAGE}, and the upload's answer says so.
 *
 * <p>The rule: at least {@value #MIN_RAN} test cases ran (passed or failed) and at least {@value
 * #MIN_SHARE_PERCENT} % of them failed. A commit that breaks most of a suite deterministically
 * reads the same way; it shows as a red build, not as hundreds of broken tests.
 *
 * @param failed the test cases that failed
 * @param ran the test cases that passed or failed
 */
public record Outage(int failed, int ran) {
  static final int MIN_RAN = 20;
  static final int MIN_SHARE_PERCENT = 50;

  /** The outage {@code results} show, if they show one. */
  public static Optional<Outage> of(List<Outcome> results) {
    int failed = (int) results.stream().filter(o -> o == Outcome.FAILED).count();
    int ran = (int) results.stream().filter(o -> o != Outcome.SKIPPED).count();
    return ran >= MIN_RAN && failed * 100L >= ran * (long) MIN_SHARE_PERCENT
        ? Optional.of(new Outage(failed, ran))
        : Optional.empty();
  }

  /** What the upload's answer says. */
  public String message() {
    return String.format(
        Locale.ROOT,
        "%d of the %d test cases that ran failed (%d %%): read as an infrastructure failure, kept"
            + " in each test's history but not as evidence that it is flaky or broken",
        failed,
        ran,
        Math.round(100.0 * failed / ran));
  }

  /** How a run of this upload enters a test's history. */
  public static Outcome inHistory(Outcome reported, Optional<Outage> outage) {
    return reported == Outcome.FAILED && outage.isPresent() ? Outcome.FAILED_IN_OUTAGE : reported;
  }
}

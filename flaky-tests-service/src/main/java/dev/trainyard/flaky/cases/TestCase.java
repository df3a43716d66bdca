package dev.trainyard.flaky.cases;

import dev.trainyard.flaky.classify.Health;
import dev.trainyard.flaky.classify.Status;
import java.util.List;

/**
 * A test case of one organization's repository: its identity (API.md §5), its status, its bounded
 * recent runs, its quarantine override and its ticket; {@code version} counts the writes of what
 * ingestion owns (identity, status, runs), which compare-and-set on it.
 */
public record TestCase(
    String org,
    String repo,
    String testId,
    String name,
    String classname,
    String parent,
    String filePath,
    String variant,
    Status status,
    List<RecentRun> runs,
    QuarantineSetting quarantine,
    int quarantineVersion,
    String ticketUrl,
    long version) {

  /**
   * Whether CI should ignore its failures: an override decides; otherwise a flaky test is
   * quarantined when the repository quarantines automatically. A broken test is never quarantined
   * automatically (it is not noise, it is broken).
   */
  public boolean quarantined(boolean autoQuarantine) {
    return quarantined(quarantine, status.value(), autoQuarantine);
  }

  /**
   * The quarantine rule, the one source of it: {@code quarantine.QuarantinedFilter} derives the
   * store's query from this function.
   */
  public static boolean quarantined(
      QuarantineSetting setting, Health health, boolean autoQuarantine) {
    if (setting == QuarantineSetting.ALWAYS_QUARANTINE) {
      return true;
    }
    if (setting == QuarantineSetting.NEVER_QUARANTINE) {
      return false;
    }
    return autoQuarantine && health == Health.FLAKY;
  }

  /** This test case with {@code next} as its runs (classified by its writer). */
  public TestCase withRuns(List<RecentRun> next) {
    return with(next, quarantine, quarantineVersion);
  }

  /** This test case with another override, one version later. */
  public TestCase withQuarantine(QuarantineSetting setting) {
    return with(runs, setting, quarantineVersion + 1);
  }

  private TestCase with(List<RecentRun> nextRuns, QuarantineSetting setting, int settingVersion) {
    return new TestCase(
        org,
        repo,
        testId,
        name,
        classname,
        parent,
        filePath,
        variant,
        status,
        nextRuns,
        setting,
        settingVersion,
        ticketUrl,
        version);
  }
}

package dev.trainyard.flaky.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.event.TestResultsEvent;
import dev.trainyard.common.json.Json;
import dev.trainyard.flaky.cases.QuarantineSetting;
import dev.trainyard.flaky.cases.RecentRun;
import dev.trainyard.flaky.cases.RunHistory;
import dev.trainyard.flaky.cases.TestCase;
import dev.trainyard.flaky.cases.TestCaseStore;
import dev.trainyard.flaky.classify.Health;
import dev.trainyard.flaky.classify.TargetBranch;
import dev.trainyard.flaky.events.TestCaseEvent;
import dev.trainyard.flaky.owners.GitCodeowners;
import dev.trainyard.flaky.repo.Repo;
import dev.trainyard.flaky.repo.RepoSettings;
import dev.trainyard.flaky.repo.RepoSettingsStore;
import dev.trainyard.flaky.store.WireStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What an upload's {@code test_results.classified} event says, on a real wire store: how many
 * failed tests are neither quarantined nor excused by a flake on record (SCHEDULING.md "Flake-aware
 * failures").
 */
class AnnouncedResultsTest {
  private static final Instant T0 = Instant.parse("2026-11-02T12:00:00Z");
  private static final String ORG = "acme-org";
  private static final Repo REPO = new Repo("github.com", "acme", "shop");
  private static final TargetBranch MAIN = TargetBranch.of("main");
  private static final UploadForm FORM =
      new UploadForm(REPO, "c0ffee", "trainyard-merge/main/r1", null, "", null, null, null, null);

  private WireStore store;
  private ReevaluationTest.RecordingBroker broker;
  private StatusWrites writes;
  private RepoSettings settings;

  @BeforeEach
  void start() {
    store = new WireStore();
    broker = new ReevaluationTest.RecordingBroker();
    writes =
        new StatusWrites(
            new TestCaseStore(store.mongo()), broker, () -> T0, "http://x", IngestMeters.off());
    settings = new RepoSettingsStore(store.mongo()).get(ORG, REPO);
  }

  @AfterEach
  void stop() {
    store.close();
  }

  /** Test {@code id} ran once with {@code outcome} on a pull request's commit. */
  private void ran(String id, Outcome outcome) {
    ran(id, List.of(new RecentRun("u-" + id, "sha-" + id, "feature", 7L, outcome, T0)));
  }

  /** Test {@code id} ran {@code runs}, oldest first, classified as the store's writer does. */
  private void ran(String id, List<RecentRun> runs) {
    List<RecentRun> history = List.of();
    for (RecentRun run : runs) {
      history = RunHistory.add(history, run, MAIN, T0);
    }
    List<RecentRun> all = history;
    writes.write(
        new StatusWrites.Writer(ORG, REPO, settings, MAIN, null, runs.get(0).uploadId(), T0),
        Map.of(
            id,
            before ->
                new TestCase(
                    ORG,
                    REPO.key(),
                    id,
                    id,
                    "a.B",
                    null,
                    null,
                    "",
                    null,
                    all,
                    QuarantineSetting.UNSPECIFIED,
                    0,
                    null,
                    0)));
    broker.published.clear();
  }

  /** A run of one test on {@code branch}'s commit {@code sha} ({@code pr}: null on the target). */
  private static RecentRun run(String sha, String branch, Long pr, Outcome outcome, int minutes) {
    return new RecentRun(
        "u-" + sha + "-" + minutes, sha, branch, pr, outcome, T0.minusSeconds(60L * minutes));
  }

  /** Sets test {@code id}'s override by hand, as the quarantine API does. */
  private void setQuarantine(String id, QuarantineSetting setting) {
    TestCaseEvent told =
        new TestCaseEvent("q-" + id, ORG, TestCaseEvent.QUARANTINE_CHANGED, id, "{}");
    assertThat(new TestCaseStore(store.mongo()).setQuarantine(ORG, id, 0, setting, "by hand", told))
        .isTrue();
  }

  private Health status(String id) {
    return new TestCaseStore(store.mongo()).find(ORG, List.of(id)).get(id).status().value();
  }

  private TestResultsEvent announced(List<String> failed) {
    writes.announceResults(ORG, FORM, "upload-1", failed, MAIN);
    assertThat(broker.published).hasSize(1);
    TestCaseEvent event = broker.published.get(0);
    assertThat(event.type()).isEqualTo(TestResultsEvent.TYPE);
    assertThat(event.id()).isEqualTo("test_results:upload-1");
    assertThat(event.testId()).as("keyed by repository").isEqualTo(REPO.key());
    return Json.mapper().readValue(event.body(), TestResultsEvent.class);
  }

  @Test
  void flakyAndQuarantinedFailuresAreExcusedOthersAreNot() {
    ran("retried", Outcome.PASSED_ON_RETRY);
    ran("pinned", Outcome.PASSED);
    ran("steady", Outcome.PASSED);
    setQuarantine("pinned", QuarantineSetting.ALWAYS_QUARANTINE);

    TestResultsEvent excused = announced(List.of("retried", "pinned"));
    assertThat(excused.failedTests()).isEqualTo(2);
    assertThat(excused.unexcusedFailures()).isZero();
    assertThat(excused.commitSha()).isEqualTo("c0ffee");
    assertThat(excused.repository().name()).isEqualTo("shop");

    broker.published.clear();
    TestResultsEvent real = announced(List.of("retried", "steady", "never-seen"));
    assertThat(real.failedTests()).isEqualTo(3);
    assertThat(real.unexcusedFailures()).as("a healthy test and an unknown one").isEqualTo(2);
  }

  /**
   * Runs on the target branch's commits, oldest first, one a minute: {@code P} passed, {@code F}
   * failed.
   */
  private static List<RecentRun> onMain(String id, String outcomes) {
    List<RecentRun> runs = new ArrayList<>();
    for (int i = 0; i < outcomes.length(); i++) {
      Outcome outcome = outcomes.charAt(i) == 'P' ? Outcome.PASSED : Outcome.FAILED;
      runs.add(run(id + "-m" + i, "main", null, outcome, outcomes.length() - i));
    }
    return runs;
  }

  /**
   * ADR 0059: one flake on record from outside the upload earns the queue's second chance before
   * the classifier lists the test flaky. A red between two passes on the target branch is a flake
   * (the queue keeps it green). A failure on a pull request's commit that never passed is the pull
   * request's doing. A streak of reds on the target branch, even one fixed since, and a red newest
   * commit may be a break. A test listed broken, or one the team set never to be quarantined, is
   * never excused.
   */
  @Test
  void oneFlakeOnRecordExcusesATestNotYetListedFlakyButNoBreakDoes() {
    ran("red-between-passes", onMain("red-between-passes", "PPFPP"));
    ran("failed-on-a-pr", List.of(run("p1", "feature", 9L, Outcome.FAILED, 60)));
    ran("fixed-break", onMain("fixed-break", "PFFFFFPP"));
    ran("red-newest", onMain("red-newest", "PPPF"));
    List<RecentRun> broken = new ArrayList<>();
    broken.add(run("p2", "feature", 9L, Outcome.PASSED_ON_RETRY, 90)); // a flake, then a break
    broken.addAll(onMain("broken-on-main", "PFFFFF"));
    ran("broken-on-main", broken);
    ran("never-quarantined", Outcome.PASSED_ON_RETRY);
    setQuarantine("never-quarantined", QuarantineSetting.NEVER_QUARANTINE);
    for (String id : List.of("red-between-passes", "failed-on-a-pr", "fixed-break", "red-newest")) {
      assertThat(status(id)).as("%s is not listed", id).isEqualTo(Health.HEALTHY);
    }
    assertThat(status("broken-on-main")).isEqualTo(Health.BROKEN);
    assertThat(status("never-quarantined")).isEqualTo(Health.FLAKY);

    Map<String, Integer> unexcused = new TreeMap<>();
    for (String id :
        List.of(
            "red-between-passes",
            "failed-on-a-pr",
            "fixed-break",
            "red-newest",
            "broken-on-main",
            "never-quarantined")) {
      broker.published.clear();
      unexcused.put(id, announced(List.of(id)).unexcusedFailures());
    }
    assertThat(unexcused)
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "red-between-passes", 0,
                "failed-on-a-pr", 1,
                "fixed-break", 1,
                "red-newest", 1,
                "broken-on-main", 1,
                "never-quarantined", 1));
  }

  /**
   * Issue 49, item 6: a PR that makes a test fail half the time marks it flaky through its own
   * re-run. The announcement names the PRs whose flakes alone excuse a failure, so the queue does
   * not excuse a run of those PRs; a flake on the target branch excuses anyone's.
   */
  @Test
  void theAnnouncementNamesThePullRequestsWhoseFlakesAloneExcuseAFailure() {
    ran("retried", Outcome.PASSED_ON_RETRY); // on PR 7's commit

    TestResultsEvent byPr = announced(List.of("retried"));
    assertThat(byPr.unexcusedFailures()).isZero();
    assertThat(byPr.excusedByPrs()).containsExactly(List.of(7L));
  }

  @Test
  void theUploadsOwnPullRequestsFlakesNeverExcuseIt() {
    ran("retried", Outcome.PASSED_ON_RETRY); // on PR 7's commit
    UploadForm ownPr = new UploadForm(REPO, "c0ffee", "feature", 7L, "", null, null, null, null);

    writes.announceResults(ORG, ownPr, "upload-1", List.of("retried"), MAIN);

    TestResultsEvent event =
        Json.mapper().readValue(broker.published.get(0).body(), TestResultsEvent.class);
    assertThat(event.unexcusedFailures()).isEqualTo(1);
    assertThat(event.excusedByPrs()).isEmpty();
  }

  @Test
  void anUploadTheBrokerCannotTakeIsStoredAndAnnouncedByTheSweep() {
    UploadStore uploads = new UploadStore(store.mongo());
    Ingestion ingestion =
        new Ingestion(
            new ResultStore(store.mongo()),
            uploads,
            new RepoSettingsStore(store.mongo()),
            GitCodeowners.none(),
            writes,
            () -> T0);
    List<TestCaseResult> results =
        List.of(new TestCaseResult(null, "a.B", "pays", null, Outcome.FAILED, 12, 1, "boom"));
    ParsedReport report =
        new ParsedReport(
            "TEST-a.B.xml",
            null,
            new byte[32],
            results,
            UploadLimits.Skipped.NONE,
            null,
            null,
            null);
    broker.down = true;

    Ingestion.Written written = ingestion.write(ORG, FORM, List.of(report), null);

    assertThat(written.testCases()).isEqualTo(1);
    List<UploadStore.Unfinished> left = uploads.unfinished(T0.plusSeconds(3600), 10);
    assertThat(left)
        .extracting(UploadStore.Unfinished::uploadId)
        .containsExactly(written.uploadId());

    broker.down = false;
    ingestion.finish(left.get(0));

    assertThat(broker.published)
        .extracting(TestCaseEvent::id)
        .containsExactly("test_results:" + written.uploadId());
    assertThat(uploads.unfinished(T0.plusSeconds(3600), 10)).isEmpty();
  }

  @Test
  void anUploadWithoutFailuresIsAnnouncedToo() {
    TestResultsEvent clean = announced(List.of());
    assertThat(clean.failedTests()).isZero();
    assertThat(clean.unexcusedFailures()).isZero();
  }
}

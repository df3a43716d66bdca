package dev.trainyard.flaky.ingest;

import dev.trainyard.common.event.TestResultsEvent;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.queue.RepoRef;
import dev.trainyard.flaky.cases.QuarantineSetting;
import dev.trainyard.flaky.cases.RecentRun;
import dev.trainyard.flaky.cases.RunHistory;
import dev.trainyard.flaky.cases.TestCase;
import dev.trainyard.flaky.cases.TestCaseJson;
import dev.trainyard.flaky.cases.TestCaseStore;
import dev.trainyard.flaky.classify.Classifier;
import dev.trainyard.flaky.classify.Health;
import dev.trainyard.flaky.classify.Observation;
import dev.trainyard.flaky.classify.Status;
import dev.trainyard.flaky.classify.TargetBranch;
import dev.trainyard.flaky.events.EventPublisher;
import dev.trainyard.flaky.events.TestCaseEvent;
import dev.trainyard.flaky.events.TestCaseEvents;
import dev.trainyard.flaky.http.ApiException;
import dev.trainyard.flaky.owners.Codeowners;
import dev.trainyard.flaky.repo.Repo;
import dev.trainyard.flaky.repo.RepoSettings;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Stores test cases' next runs and statuses by compare-and-set ({@link TestCaseStore.Write}), then
 * publishes the status changes that were stored. A test case another writer changed meanwhile (a
 * second replica's upload of the same repository, the sweeper) is read again and its change applied
 * to what that writer stored, so no run is lost and each transition is stored — and announced —
 * once. A status event is kept on its document until published: if this writer stops in between,
 * {@link Reevaluation} publishes it. Its id is derived from the test, the version the transition
 * started from and the new status, so whoever publishes it gives subscribers the same event.
 */
public class StatusWrites {
  /** The most pull requests named for one excused test, and the most excused tests listed. */
  static final int MAX_PRS = 20;

  static final int MAX_EXCUSED = 1000;

  /** Rounds of reading again before the upload is answered 503 (it can be sent again). */
  static final int ATTEMPTS = 20;

  private final TestCaseStore cases;
  private final EventPublisher events;
  private final InstantSource clock;
  private final String publicUrl;
  private final IngestMeters meters;

  public StatusWrites(
      TestCaseStore cases,
      EventPublisher events,
      InstantSource clock,
      String publicUrl,
      IngestMeters meters) {
    this.meters = meters;
    this.cases = cases;
    this.events = events;
    this.clock = clock;
    this.publicUrl = publicUrl;
  }

  /**
   * Who writes: the organization and repository, what it knows of the repository, its id ({@code
   * writer}: the upload's, or the sweeper's round) and the time it classifies at.
   */
  public record Writer(
      String org,
      Repo repo,
      RepoSettings settings,
      TargetBranch target,
      Codeowners owners,
      String id,
      Instant at) {}

  /**
   * Applies {@code changes} (test id → the test case with its next identity and runs, from the
   * document as read — null when there is none; a change that returns null writes nothing) and
   * classifies each result. A test case whose runs and status would not change is not written.
   */
  public void write(Writer writer, Map<String, UnaryOperator<TestCase>> changes) {
    Set<String> pending = changes.keySet();
    for (int attempt = 0; !pending.isEmpty(); attempt++) {
      if (attempt == ATTEMPTS) {
        throw ApiException.unavailable(
            "test cases of this repository kept changing under other writers; send the upload"
                + " again");
      }
      Map<String, TestCase> existing = cases.find(writer.org(), pending);
      List<TestCaseStore.Write> writes = new ArrayList<>();
      for (String testId : pending) {
        TestCase before = existing.get(testId);
        if (before != null && !before.repo().equals(writer.repo().key())) {
          continue; // the same test id in another repository of the organization cannot happen
        }
        TestCase changed = changes.get(testId).apply(before);
        if (changed != null) {
          TestCaseStore.Write write = next(writer, before, changed);
          if (write != null) {
            writes.add(write);
          }
        }
      }
      if (writes.isEmpty()) {
        return;
      }
      pending = cases.save(writes, clock.instant());
      List<TestCaseEvent> announced = new ArrayList<>();
      for (TestCaseStore.Write w : writes) {
        if (w.event() != null && !pending.contains(w.next().testId())) {
          announced.add(w.event());
          meters.classified(w.next().status().value());
        }
      }
      events.publish(announced); // after the statuses are stored; a failure leaves them pending
      cases.clearPendingStatusEvents(announced);
    }
  }

  /** Which of {@code testIds} are the organization's stored test cases. */
  public Set<String> existing(String org, Set<String> testIds) {
    return cases.existing(org, testIds);
  }

  /**
   * Publishes what the upload says of its failed tests ({@code test_results.classified}, keyed by
   * repository, its id derived from the upload so that a retry publishes the same event): how many
   * are neither quarantined by hand nor excused by a flake from outside the upload's own pull
   * request, commit and branch in the last 28 days ({@link Classifier#excusingFlakes}). One flake
   * on record is enough for the queue's one second chance, the test need not be listed flaky yet; a
   * test listed broken, or set never to be quarantined, is never excused (ADR 0059). And, for each
   * failed test excused only by flakes seen on pull requests, those pull requests' numbers. A merge
   * queue's run is not excused by the flakes of its own PRs (the worker knows which they are): a PR
   * that makes a test fail half the time marks it flaky through its own re-run, and that never
   * excuses its own failure.
   */
  public void announceResults(
      String org, UploadForm form, String uploadId, List<String> failed, TargetBranch target) {
    Map<String, TestCase> known = cases.find(org, failed);
    Instant now = clock.instant();
    int unexcused = 0;
    List<List<Long>> excusedByPrs = new ArrayList<>();
    for (String testId : failed) {
      TestCase tc = known.get(testId);
      if (tc != null && tc.quarantine() == QuarantineSetting.ALWAYS_QUARANTINE) {
        continue; // quarantined by hand: excused whoever's evidence
      }
      List<Observation> flakes =
          tc != null
                  && tc.status().value() != Health.BROKEN
                  && tc.quarantine() != QuarantineSetting.NEVER_QUARANTINE
              ? Classifier.excusingFlakes(outside(tc, form), target, now)
              : List.of();
      if (flakes.isEmpty()) {
        unexcused++;
      } else if (flakes.stream().allMatch(f -> f.prNumber() != null)) {
        if (excusedByPrs.size() == MAX_EXCUSED) {
          unexcused++; // past what an event lists: not excused
          continue;
        }
        excusedByPrs.add(
            flakes.stream().map(Observation::prNumber).distinct().sorted().limit(MAX_PRS).toList());
      }
    }
    Repo repo = form.repo();
    TestResultsEvent body =
        TestResultsEvent.of(
            new RepoRef(repo.host(), repo.owner(), repo.name()),
            form.commitSha(),
            form.branch(),
            form.prNumber(),
            uploadId,
            failed.size(),
            unexcused,
            excusedByPrs,
            clock.instant());
    events.publish(
        List.of(
            new TestCaseEvent(
                "test_results:" + uploadId,
                org,
                TestResultsEvent.TYPE,
                repo.key(),
                Json.mapper().writeValueAsString(body))));
  }

  /** The runs of {@code tc} that are not the upload's own (see {@link #announceResults}). */
  private static List<Observation> outside(TestCase tc, UploadForm form) {
    return tc.runs().stream()
        .filter(r -> r.prNumber() == null || !r.prNumber().equals(form.prNumber()))
        .filter(r -> !java.util.Objects.equals(r.commitSha(), form.commitSha()))
        .filter(r -> form.prNumber() == null || !form.branch().equals(r.branch()))
        .map(RecentRun::observation)
        .toList();
  }

  /** The write of {@code changed} classified, one version after {@code before}; null: no change. */
  private TestCaseStore.Write next(Writer writer, TestCase before, TestCase changed) {
    Status previous = before == null ? null : before.status();
    Status status =
        Classifier.classify(
            RunHistory.observations(changed.runs()), writer.target(), writer.at(), previous);
    if (before != null && status.equals(previous) && changed.runs().equals(before.runs())) {
      return null;
    }
    long version = before == null ? 1 : before.version() + 1;
    TestCase tc =
        new TestCase(
            changed.org(),
            changed.repo(),
            changed.testId(),
            changed.name(),
            changed.classname(),
            changed.parent(),
            changed.filePath(),
            changed.variant(),
            status,
            changed.runs(),
            changed.quarantine(),
            changed.quarantineVersion(),
            changed.ticketUrl(),
            version);
    Status was = previous == null ? Status.healthy(writer.at()) : previous;
    TestCaseEvent event = null;
    if (was.value() != status.value() && !(previous == null && status.value() == Health.HEALTHY)) {
      RepoSettings settings = writer.settings();
      Map<String, Object> item =
          TestCaseJson.item(
              tc,
              writer.repo(),
              publicUrl,
              settings.owners(writer.owners(), tc),
              tc.quarantined(settings.autoQuarantine()),
              writer.at());
      event =
          TestCaseEvents.statusChanged(writer.org(), tc.testId(), version - 1, item, was, status);
    }
    return new TestCaseStore.Write(tc, writer.id(), event);
  }
}

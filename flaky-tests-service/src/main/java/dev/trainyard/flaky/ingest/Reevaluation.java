package dev.trainyard.flaky.ingest;

import com.mongodb.client.model.Filters;
import dev.trainyard.flaky.cases.RunHistory;
import dev.trainyard.flaky.cases.TestCase;
import dev.trainyard.flaky.cases.TestCaseStore;
import dev.trainyard.flaky.classify.Health;
import dev.trainyard.flaky.classify.TargetBranch;
import dev.trainyard.flaky.events.EventPublisher;
import dev.trainyard.flaky.events.TestCaseEvent;
import dev.trainyard.flaky.owners.GitCodeowners;
import dev.trainyard.flaky.repo.Repo;
import dev.trainyard.flaky.repo.RepoSettings;
import dev.trainyard.flaky.repo.RepoSettingsStore;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.bson.Document;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * What happens to statuses while no upload comes (run on every replica, every {@code
 * trainyard.flaky.sweep-interval}; compare-and-set and derived event ids make two replicas' rounds
 * harmless):
 *
 * <ol>
 *   <li>an upload left {@code writing} for {@link #UNFINISHED_AFTER} (its writer stopped after
 *       logging its results) is finished from the run log ({@link Ingestion#finish});
 *   <li>status events stored but not published (a writer stopped in between) are published;
 *   <li>flaky and broken tests not evaluated for {@link #EVALUATE_EVERY} are classified again at
 *       the current time: evidence that left the 7-day window changes the reason or the status (a
 *       test with no run in 7 days — deleted, renamed, disabled — is healthy again), with its
 *       event, so the listing does not keep a frozen reason;
 *   <li>test cases with no run for the whole retention are removed (MongoDB's TTL index on {@code
 *       lastRunAt} does it too; the embedded store has none).
 * </ol>
 */
public class Reevaluation {
  /** How stale an unpublished status event must be before the sweeper takes it over. */
  static final Duration PUBLISH_AFTER = Duration.ofSeconds(30);

  /** How often an unhealthy test is classified again without an upload. */
  static final Duration EVALUATE_EVERY = Duration.ofHours(1);

  static final int ROUND = 500;

  /**
   * How long an upload may stay {@code writing} before its writer counts as gone: past the
   * gateway's 2-minute upload timeout, the client has been answered, and a resend would have
   * finished it.
   */
  static final Duration UNFINISHED_AFTER = Duration.ofMinutes(10);

  static final int UPLOADS_PER_ROUND = 5;
  private static final Logger log = LoggerFactory.getLogger(Reevaluation.class);

  private final TestCaseStore cases;
  private final UploadStore uploads;
  private final Ingestion ingestion;
  private final RepoSettingsStore settings;
  private final GitCodeowners git;
  private final StatusWrites writes;
  private final EventPublisher events;
  private final InstantSource clock;
  private final Duration retention;
  private final IngestMeters meters;

  public Reevaluation(
      TestCaseStore cases,
      UploadStore uploads,
      Ingestion ingestion,
      RepoSettingsStore settings,
      GitCodeowners git,
      StatusWrites writes,
      EventPublisher events,
      InstantSource clock,
      Duration retention,
      IngestMeters meters) {
    this.cases = cases;
    this.uploads = uploads;
    this.ingestion = ingestion;
    this.settings = settings;
    this.git = git;
    this.writes = writes;
    this.events = events;
    this.clock = clock;
    this.retention = retention;
    this.meters = meters;
  }

  /** One round; a failure is logged and the next round tries again. */
  @Scheduled(
      fixedDelayString = "${trainyard.flaky.sweep-interval:PT5M}",
      initialDelayString = "${trainyard.flaky.sweep-interval:PT5M}")
  public void sweep() {
    for (Runnable step :
        List.<Runnable>of(
            this::finishUploads, this::publishPending, this::reevaluate, this::expire)) {
      try {
        step.run();
      } catch (RuntimeException e) { // one step's failure (the broker away) does not stop the rest
        log.warn("a step of the status sweep failed; the next sweep tries again: {}", e.toString());
      }
    }
  }

  void finishUploads() {
    Instant before = clock.instant().minus(UNFINISHED_AFTER);
    for (UploadStore.Unfinished upload : uploads.unfinished(before, UPLOADS_PER_ROUND)) {
      ingestion.finish(upload);
      log.info("finished upload {} of {}, left half-written", upload.uploadId(), upload.org());
    }
    meters.unfinished(uploads.countUnfinished(before));
  }

  void publishPending() {
    List<TestCaseEvent> pending =
        cases.pendingStatusEvents(clock.instant().minus(PUBLISH_AFTER), ROUND);
    if (pending.isEmpty()) {
      return;
    }
    events.publish(pending);
    cases.clearPendingStatusEvents(pending);
    log.info("published {} status events a writer had stored but not published", pending.size());
  }

  void reevaluate() {
    Instant now = clock.instant();
    Map<String, List<TestCase>> byRepo = new LinkedHashMap<>();
    for (Document doc :
        cases
            .collection()
            .find(
                Filters.and(
                    Filters.in("status.value", Health.FLAKY.wire(), Health.BROKEN.wire()),
                    Filters.not(
                        Filters.gte(
                            TestCaseStore.EVALUATED, Date.from(now.minus(EVALUATE_EVERY))))))
            .limit(ROUND)) {
      TestCase tc = TestCaseStore.fromDocument(doc);
      byRepo.computeIfAbsent(tc.org() + "\n" + tc.repo(), k -> new ArrayList<>()).add(tc);
    }
    for (List<TestCase> group : byRepo.values()) {
      TestCase first = group.get(0);
      String[] parts = first.repo().split("/", 3);
      Repo repo = new Repo(parts[0], parts[1], parts[2]);
      RepoSettings repoSettings = settings.get(first.org(), repo);
      TargetBranch target =
          settings.target(first.org(), repo, repoSettings, git.defaultBranch(first.org(), repo));
      Map<String, UnaryOperator<TestCase>> changes = new LinkedHashMap<>();
      for (TestCase tc : group) {
        changes.put(
            tc.testId(),
            before ->
                before == null
                    ? null
                    : before.withRuns(RunHistory.current(before.runs(), target, now)));
      }
      writes.write(
          new StatusWrites.Writer(
              first.org(),
              repo,
              repoSettings,
              target,
              settings.parsed(first.org(), repoSettings),
              "sweep-" + now.toEpochMilli(),
              now),
          changes);
      cases.evaluated(first.org(), changes.keySet(), now);
    }
  }

  void expire() {
    long removed =
        cases
            .collection()
            .deleteMany(
                Filters.lt(TestCaseStore.LAST_RUN, Date.from(clock.instant().minus(retention))))
            .getDeletedCount();
    if (removed > 0) {
      log.info("removed {} test cases with no run for {}", removed, retention);
    }
  }
}

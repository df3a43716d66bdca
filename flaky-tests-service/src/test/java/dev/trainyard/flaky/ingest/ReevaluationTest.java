package dev.trainyard.flaky.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trainyard.flaky.cases.QuarantineSetting;
import dev.trainyard.flaky.cases.RecentRun;
import dev.trainyard.flaky.cases.TestCase;
import dev.trainyard.flaky.cases.TestCaseStore;
import dev.trainyard.flaky.classify.Health;
import dev.trainyard.flaky.classify.TargetBranch;
import dev.trainyard.flaky.events.EventPublisher;
import dev.trainyard.flaky.events.TestCaseEvent;
import dev.trainyard.flaky.owners.GitCodeowners;
import dev.trainyard.flaky.repo.Repo;
import dev.trainyard.flaky.repo.RepoSettingsStore;
import dev.trainyard.flaky.store.WireStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.KafkaException;

/**
 * Statuses while no upload comes, on a real wire store: evidence leaving the window, a test that
 * stopped running, an event a stopped writer left unpublished, a test case past the retention.
 */
class ReevaluationTest {
  private static final Instant T0 = Instant.parse("2026-11-02T12:00:00Z");
  private static final String ORG = "acme-org";
  private static final Repo REPO = new Repo("github.com", "acme", "shop");
  private static final TargetBranch MAIN = TargetBranch.of("main");

  /** The broker: records what it acknowledged; refuses while {@code down}. */
  static final class RecordingBroker extends EventPublisher {
    final List<TestCaseEvent> published = new ArrayList<>();
    boolean down;

    RecordingBroker() {
      super(null, null);
    }

    @Override
    public void publish(List<TestCaseEvent> events) {
      if (down && !events.isEmpty()) {
        throw new KafkaException("the broker did not acknowledge the events");
      }
      published.addAll(events);
    }
  }

  private final AtomicReference<Instant> now = new AtomicReference<>(T0);
  private final InstantSource clock = () -> now.get();
  private WireStore store;
  private TestCaseStore cases;
  private RecordingBroker broker;
  private StatusWrites writes;
  private Reevaluation sweep;
  private UploadStore uploads;
  private ResultStore results;
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

  @BeforeEach
  void start() {
    store = new WireStore();
    cases = new TestCaseStore(store.mongo());
    broker = new RecordingBroker();
    writes = new StatusWrites(cases, broker, clock, "http://localhost:8080", IngestMeters.off());
    RepoSettingsStore settings = new RepoSettingsStore(store.mongo());
    uploads = new UploadStore(store.mongo());
    results = new ResultStore(store.mongo());
    Ingestion ingestion =
        new Ingestion(results, uploads, settings, GitCodeowners.none(), writes, clock);
    sweep =
        new Reevaluation(
            cases,
            uploads,
            ingestion,
            settings,
            GitCodeowners.none(),
            writes,
            broker,
            clock,
            Duration.ofDays(30),
            new IngestMeters(meters));
  }

  @AfterEach
  void stop() {
    store.close();
  }

  /** Uploads {@code outcome} of test {@code t} on {@code sha} of a pull request, at the clock. */
  private void run(String sha, Outcome outcome) {
    Instant at = now.get();
    RecentRun run = new RecentRun("u-" + at + sha + outcome, sha, "feature", 7L, outcome, at);
    writes.write(
        new StatusWrites.Writer(
            ORG,
            REPO,
            new RepoSettingsStore(store.mongo()).get(ORG, REPO),
            MAIN,
            null,
            run.uploadId(),
            at),
        Map.of(
            "t",
            before ->
                (before != null ? before : fresh())
                    .withRuns(
                        dev.trainyard.flaky.cases.RunHistory.add(
                            before == null ? List.of() : before.runs(), run, MAIN, at))));
  }

  private static TestCase fresh() {
    return new TestCase(
        ORG,
        REPO.key(),
        "t",
        "t",
        "a.B",
        null,
        null,
        "",
        null,
        List.of(),
        QuarantineSetting.UNSPECIFIED,
        0,
        null,
        0);
  }

  private TestCase stored() {
    return cases.find(ORG, List.of("t")).get("t");
  }

  @Test
  void aFlakyTestThatStopsRunningIsHealthyAgainWithItsEvent() {
    run("c1", Outcome.FAILED);
    run("c1", Outcome.PASSED);
    assertThat(stored().status().value()).isEqualTo(Health.FLAKY);

    now.set(T0.plus(Duration.ofDays(8)));
    sweep.sweep();

    assertThat(stored().status().value()).isEqualTo(Health.HEALTHY);
    assertThat(stored().status().reason()).startsWith("no runs in 7 days");
    assertThat(broker.published).hasSize(2); // healthy → flaky, flaky → healthy
    assertThat(broker.published.get(1).body()).contains("\"previous_status\":\"flaky\"");
  }

  @Test
  void aReasonCountingEvidenceFollowsTheWindow() {
    run("c1", Outcome.PASSED_ON_RETRY);
    now.set(T0.plus(Duration.ofDays(5)));
    run("c2", Outcome.PASSED_ON_RETRY);
    assertThat(stored().status().reason()).isEqualTo("passed on a retry 2 times in 7 days");

    now.set(T0.plus(Duration.ofDays(8)));
    sweep.sweep();

    assertThat(stored().status().value()).isEqualTo(Health.FLAKY);
    assertThat(stored().status().reason()).isEqualTo("passed on a retry once in 7 days");
    assertThat(broker.published).as("the status held: no event").hasSize(1);
  }

  @Test
  void anEventAWriterStoredButCouldNotPublishIsPublishedOnce() {
    broker.down = true;
    run("c1", Outcome.FAILED);
    assertThatThrownBy(() -> run("c1", Outcome.PASSED)).isInstanceOf(KafkaException.class);
    assertThat(stored().status().value()).as("stored before publishing").isEqualTo(Health.FLAKY);
    broker.down = false;

    sweep.sweep();
    assertThat(broker.published).as("not before it is 30 s old").isEmpty();
    now.set(T0.plusSeconds(31));
    sweep.sweep();
    sweep.sweep();

    assertThat(broker.published).hasSize(1);
    assertThat(broker.published.get(0).body()).contains("\"previous_status\":\"healthy\"");
  }

  @Test
  void anUploadItsWriterLeftHalfWrittenIsFinishedFromItsRunLog() {
    // what a writer had done when it stopped: the upload recorded, its results logged
    UploadForm form = new UploadForm(REPO, "c9", "main", null, "", null, "u-9", null, null);
    uploads.begin(ORG, "u-9", "content", form, 1, null, null, T0);
    results.save(
        ORG,
        REPO.key(),
        form,
        "u-9",
        List.of(new MergedResult("t", "t", "a.B", null, null, "", Outcome.FAILED, 5, "boom")),
        T0);

    now.set(T0.plus(Duration.ofMinutes(9)));
    sweep.sweep();
    assertThat(stored()).as("not before 10 minutes").isNull();
    now.set(T0.plus(Duration.ofMinutes(11)));
    sweep.sweep();

    assertThat(stored().runs())
        .extracting(RecentRun::uploadId, RecentRun::outcome, RecentRun::at)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("u-9", Outcome.FAILED, T0));
    assertThat(uploads.unfinished(now.get(), 10)).as("marked done").isEmpty();
  }

  @Test
  void uploadsLeftHalfWrittenAreCountedUntilTheSweepsFinishThem() {
    for (int i = 0; i < Reevaluation.UPLOADS_PER_ROUND + 2; i++) {
      UploadForm form = new UploadForm(REPO, "c" + i, "main", null, "", null, "w-" + i, null, null);
      uploads.begin(ORG, "w-" + i, "content", form, 1, null, null, T0);
    }
    now.set(T0.plus(Duration.ofMinutes(9)));
    sweep.sweep();
    assertThat(unfinished()).as("their writers may still be at it").isZero();

    now.set(T0.plus(Duration.ofMinutes(11)));
    sweep.sweep();
    assertThat(unfinished()).as("a round finishes five").isEqualTo(2);
    sweep.sweep();
    assertThat(unfinished()).isZero();
  }

  private double unfinished() {
    return meters.get("trainyard.flaky.uploads.unfinished").gauge().value();
  }

  @Test
  void twoTransitionsStoredWhileTheBrokerIsAwayAreBothPublishedInOrder() {
    broker.down = true;
    run("c1", Outcome.FAILED);
    assertThatThrownBy(() -> run("c1", Outcome.PASSED)).isInstanceOf(KafkaException.class);
    now.set(T0.plus(Duration.ofDays(8)));
    sweep.sweep(); // no run in 7 days: healthy again, stored; its event cannot be published either
    assertThat(stored().status().value()).isEqualTo(Health.HEALTHY);
    assertThat(broker.published).isEmpty();

    broker.down = false;
    now.set(T0.plus(Duration.ofDays(8)).plusSeconds(31));
    sweep.sweep();
    sweep.sweep();

    assertThat(broker.published).hasSize(2);
    assertThat(broker.published.get(0).body()).contains("\"previous_status\":\"healthy\"");
    assertThat(broker.published.get(1).body()).contains("\"previous_status\":\"flaky\"");
  }

  @Test
  void aTestCaseWithNoRunForTheRetentionIsRemoved() {
    run("c1", Outcome.PASSED);
    now.set(T0.plus(Duration.ofDays(29)));
    sweep.sweep();
    assertThat(stored()).isNotNull();

    now.set(T0.plus(Duration.ofDays(31)));
    sweep.sweep();

    assertThat(stored()).isNull();
  }
}

package dev.trainyard.flaky.ingest;

import dev.trainyard.flaky.classify.Health;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What ingestion counts: {@code trainyard.flaky.uploads} by outcome ({@code accepted}, {@code
 * rejected}: answered 4xx/5xx), {@code trainyard.flaky.test.cases.ingested} (test cases of accepted
 * uploads) and {@code trainyard.flaky.classification.changes} by the status a test case moved to;
 * {@code trainyard.flaky.uploads.unfinished} is how many uploads the last sweep left half-written
 * past their writer's time (stopped writers whose uploads the sweeps do not finish).
 */
public final class IngestMeters {
  private final MeterRegistry meters;
  private final AtomicLong unfinished = new AtomicLong();

  public IngestMeters(MeterRegistry meters) {
    this.meters = meters;
    // every series exists from the start (a dashboard's rate of a series not yet born shows
    // nothing)
    meters.counter("trainyard.flaky.test.cases.ingested");
    meters.counter("trainyard.flaky.uploads", "outcome", "accepted");
    meters.counter("trainyard.flaky.uploads", "outcome", "rejected");
    for (Health h : Health.values()) {
      meters.counter("trainyard.flaky.classification.changes", "to", h.wire());
    }
    Gauge.builder("trainyard.flaky.uploads.unfinished", unfinished, AtomicLong::get)
        .description(
            "uploads left half-written past their writer's time that the last sweep did not finish")
        .strongReference(true)
        .register(meters);
  }

  /** Counts nothing anyone reads. */
  public static IngestMeters off() {
    return new IngestMeters(new SimpleMeterRegistry());
  }

  void accepted(int testCases) {
    meters.counter("trainyard.flaky.uploads", "outcome", "accepted").increment();
    meters.counter("trainyard.flaky.test.cases.ingested").increment(testCases);
  }

  void rejected() {
    meters.counter("trainyard.flaky.uploads", "outcome", "rejected").increment();
  }

  void unfinished(long uploads) {
    unfinished.set(uploads);
  }

  void classified(Health to) {
    meters.counter("trainyard.flaky.classification.changes", "to", to.wire()).increment();
  }
}

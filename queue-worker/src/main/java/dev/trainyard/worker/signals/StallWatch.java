package dev.trainyard.worker.signals;

import dev.trainyard.worker.store.QueueStore;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * Watches for stalled queues: ready pull requests that have waited {@code stalledAfter} (30
 * minutes) without one of the queue's concluding ({@link dev.trainyard.worker.store.QueueStalls}).
 * Each worker counts the queues of the partitions it holds ({@code owned}: {@link
 * OwnedQueues#now()}), so the workers' sums count each once: {@code trainyard.queues.waiting}
 * (ready pull requests wait, the queue may move) and {@code trainyard.queues.stalled} (they have
 * waited {@code stalledAfter}); it names the stalled ones in a WARN line when one more stalls and
 * again every {@code stalledAfter} while any is: numbers for the alerts, the names in the log,
 * never a label per queue.
 */
public class StallWatch {
  private static final Logger log = LoggerFactory.getLogger(StallWatch.class);
  static final int NAMED = 20;

  private final QueueStore store;
  private final Supplier<Predicate<String>> owned;
  private final InstantSource clock;
  private final Duration stalledAfter;
  private volatile int stalled;
  private volatile int waiting;
  private Set<String> named = Set.of();
  private Instant namedAt = Instant.MIN;

  public StallWatch(
      QueueStore store,
      Supplier<Predicate<String>> owned,
      InstantSource clock,
      Duration stalledAfter) {
    this.store = store;
    this.owned = owned;
    this.clock = clock;
    this.stalledAfter = stalledAfter;
  }

  /** Registers {@code trainyard.queues.stalled} and {@code trainyard.queues.waiting}. */
  public void register(MeterRegistry meters) {
    Gauge.builder("trainyard.queues.waiting", this, w -> w.waiting)
        .description(
            "queues of this worker's partitions whose ready pull requests wait for a conclusion")
        .register(meters);
    Gauge.builder("trainyard.queues.stalled", this, w -> w.stalled)
        .description(
            "queues of this worker's partitions whose ready pull requests waited "
                + stalledAfter.toSeconds()
                + " s without one concluding")
        .register(meters);
  }

  @Scheduled(
      fixedDelayString = "${trainyard.worker.stall-check-interval:60s}",
      initialDelayString = "${trainyard.worker.stall-check-interval:60s}")
  public synchronized void check() {
    Predicate<String> owns = owned.get();
    Instant now = clock.instant();
    Map<String, Instant> mine;
    try {
      mine =
          store.waiting(now).entrySet().stream()
              .filter(e -> owns.test(e.getKey()))
              .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    } catch (RuntimeException e) {
      log.warn("could not look for stalled queues; the next round retries: {}", e.toString());
      return;
    }
    Instant stalledBy = now.minus(stalledAfter);
    List<String> found =
        mine.entrySet().stream()
            .filter(e -> !e.getValue().isAfter(stalledBy))
            .map(Map.Entry::getKey)
            .sorted()
            .toList();
    waiting = mine.size();
    stalled = found.size();
    boolean another = !named.containsAll(found);
    if (!found.isEmpty() && (another || !now.isBefore(namedAt.plus(stalledAfter)))) {
      log.warn(
          "{} queue(s) stalled: ready pull requests have waited {} or more without one"
              + " concluding (CI not reporting, landings refused): {}{}",
          found.size(),
          stalledAfter.toMinutes() > 0
              ? stalledAfter.toMinutes() + " min"
              : stalledAfter.toSeconds() + " s",
          String.join(", ", found.subList(0, Math.min(NAMED, found.size()))),
          found.size() > NAMED ? " and " + (found.size() - NAMED) + " more" : "");
      namedAt = now;
    }
    named = Set.copyOf(found);
  }

  int stalled() {
    return stalled;
  }

  int waiting() {
    return waiting;
  }
}

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
 * minutes) without one of the queue's concluding ({@link dev.trainyard.worker.store.QueueStalls});
 * and for overdue ones: a deadline of the queue (a run's {@code testingTimeoutMinutes}, a stale
 * PR's timeout, a settle time, a merge window's change) passed {@link #OVERDUE_AFTER} ago and the
 * ticker did not act on it. Each worker counts the queues of the partitions it holds ({@code
 * owned}: {@link OwnedQueues#now()}), so the workers' sums count each once: {@code
 * trainyard.queues.waiting} (ready pull requests wait, the queue may move), {@code
 * trainyard.queues.stalled} (they have waited {@code stalledAfter}) and {@code
 * trainyard.queues.overdue}; it names the stalled and the overdue ones in a WARN line when one more
 * is found and again every {@code stalledAfter} while any is: numbers for the alerts, the names in
 * the log, never a label per queue.
 */
public class StallWatch {
  private static final Logger log = LoggerFactory.getLogger(StallWatch.class);
  static final int NAMED = 20;

  /** How long past its deadline a queue counts as overdue: many ticks, not one slow one. */
  public static final Duration OVERDUE_AFTER = Duration.ofMinutes(5);

  private final QueueStore store;
  private final Supplier<Predicate<String>> owned;
  private final InstantSource clock;
  private final Duration stalledAfter;
  private volatile int stalled;
  private volatile int waiting;
  private volatile int overdue;
  private final Named stalledNamed;
  private final Named overdueNamed;

  public StallWatch(
      QueueStore store,
      Supplier<Predicate<String>> owned,
      InstantSource clock,
      Duration stalledAfter) {
    this.store = store;
    this.owned = owned;
    this.clock = clock;
    this.stalledAfter = stalledAfter;
    this.stalledNamed =
        new Named(
            "stalled: ready pull requests have waited "
                + minutes(stalledAfter)
                + " or more without one concluding (CI not reporting, landings refused)");
    this.overdueNamed =
        new Named(
            "overdue: a deadline (a run's testing timeout, a stale PR, a settle time) passed "
                + minutes(OVERDUE_AFTER)
                + " ago and no tick acted on it");
  }

  /**
   * Registers {@code trainyard.queues.stalled}, {@code trainyard.queues.waiting} and {@code
   * trainyard.queues.overdue}.
   */
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
    Gauge.builder("trainyard.queues.overdue", this, w -> w.overdue)
        .description(
            "queues of this worker's partitions whose next deadline passed "
                + OVERDUE_AFTER.toSeconds()
                + " s ago without a tick acting on it")
        .register(meters);
  }

  @Scheduled(
      fixedDelayString = "${trainyard.worker.stall-check-interval:60s}",
      initialDelayString = "${trainyard.worker.stall-check-interval:60s}")
  public synchronized void check() {
    Predicate<String> owns = owned.get();
    Instant now = clock.instant();
    Map<String, Instant> mine;
    List<String> late;
    try {
      mine =
          store.waiting(now).entrySet().stream()
              .filter(e -> owns.test(e.getKey()))
              .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
      late = store.dueIds(now.minus(OVERDUE_AFTER)).stream().filter(owns).sorted().toList();
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
    overdue = late.size();
    stalledNamed.name(found, now);
    overdueNamed.name(late, now);
  }

  private static String minutes(Duration d) {
    return d.toMinutes() > 0 ? d.toMinutes() + " min" : d.toSeconds() + " s";
  }

  int stalled() {
    return stalled;
  }

  int waiting() {
    return waiting;
  }

  /** The queues last named in a WARN line of one kind, and when. */
  private final class Named {
    private final String what;
    private Set<String> named = Set.of();
    private Instant namedAt = Instant.MIN;

    Named(String what) {
      this.what = what;
    }

    void name(List<String> found, Instant now) {
      boolean another = !named.containsAll(found);
      if (!found.isEmpty() && (another || !now.isBefore(namedAt.plus(stalledAfter)))) {
        log.warn(
            "{} queue(s) {}: {}{}",
            found.size(),
            what,
            String.join(", ", found.subList(0, Math.min(NAMED, found.size()))),
            found.size() > NAMED ? " and " + (found.size() - NAMED) + " more" : "");
        namedAt = now;
      }
      named = Set.copyOf(found);
    }
  }
}

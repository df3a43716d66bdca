package dev.trainyard.worker.signals;

import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.worker.store.QueueStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.InstantSource;
import java.util.List;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * Every interval, sends a {@code Tick} to each due queue this instance owns. A tick that arrives
 * twice is harmless: deciding it again finds nothing due. {@link #secondsSinceRound()} is how long
 * ago a round last went through ({@code trainyard.worker.tick.age}): a scheduler thread held up
 * elsewhere, or a store that cannot be read, stops every deadline of the worker's queues.
 */
public class Ticker {
  private static final Logger log = LoggerFactory.getLogger(Ticker.class);
  private final QueueStore store;
  private final OwnedQueues owned;
  private final Signals signals;
  private final InstantSource clock;
  private final Counter keysRead;
  private volatile long roundAt = System.nanoTime();

  public Ticker(
      QueueStore store,
      OwnedQueues owned,
      Signals signals,
      InstantSource clock,
      MeterRegistry meters) {
    this.store = store;
    this.owned = owned;
    this.signals = signals;
    this.clock = clock;
    this.keysRead =
        Counter.builder("trainyard.worker.tick.keys.read")
            .description("Keys of due queues the ticker read (it loads no queue)")
            .register(meters);
  }

  @Scheduled(fixedDelayString = "${trainyard.worker.tick-interval:5s}")
  public void tick() {
    Predicate<String> mine = owned.now();
    try {
      // the keys only: a due queue is loaded by the worker that decides its tick, not here too
      List<QueueKey> due = store.dueBefore(clock.instant());
      keysRead.increment(due.size());
      for (QueueKey key : due) {
        if (mine.test(key.id())) {
          signals.send(key, new QueueCommand.Tick());
        }
      }
      roundAt = System.nanoTime();
    } catch (RuntimeException e) {
      log.warn("could not look for due queues; the next round retries: {}", e.toString());
    }
  }

  /** Seconds since a round last went through (since the start before the first). */
  public double secondsSinceRound() {
    return (System.nanoTime() - roundAt) / 1e9;
  }
}

package dev.trainyard.worker.config;

import dev.trainyard.worker.processing.CommandListener;
import dev.trainyard.worker.processing.CommandProcessor;
import dev.trainyard.worker.signals.Ticker;
import dev.trainyard.worker.store.DeadCommandStore;
import dev.trainyard.worker.store.OutboxStore;
import dev.trainyard.worker.store.QueueStore;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Collection;
import java.util.function.LongSupplier;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;

/**
 * The worker's gauges: {@code trainyard.outbox.backlog} (outboxes not yet published), {@code
 * trainyard.pull.requests.waiting} (pull requests of every queue not yet concluded), {@code
 * trainyard.dead.commands.pending} (commands kept dead, until replayed or dismissed), {@code
 * trainyard.worker.partitions.assigned}, {@code trainyard.worker.queues.cached}, {@code
 * trainyard.worker.queues.cached.bytes} (their heap, as the cache estimates it, which its budget
 * bounds) and {@code trainyard.worker.tick.age} (seconds since the ticker's last round). The three
 * read from the store are counted at most once per {@link #STORE_READ_EVERY}, however often
 * scraped.
 */
final class WorkerGauges {
  static final Duration STORE_READ_EVERY = Duration.ofSeconds(15);

  private WorkerGauges() {}

  static void register(
      MeterRegistry meters,
      OutboxStore outboxes,
      QueueStore queues,
      DeadCommandStore dead,
      CommandProcessor processor,
      KafkaListenerEndpointRegistry listeners,
      Ticker ticker) {
    gauge(
        meters,
        "trainyard.outbox.backlog",
        "outboxes written, not yet published",
        outboxes::backlog);
    gauge(
        meters,
        "trainyard.pull.requests.waiting",
        "pull requests of every queue not yet concluded",
        queues::activeEntries);
    gauge(
        meters,
        "trainyard.dead.commands.pending",
        "commands kept dead, not yet replayed or dismissed",
        dead::pending);
    Gauge.builder("trainyard.worker.tick.age", ticker, Ticker::secondsSinceRound)
        .description("seconds since the ticker's last round went through")
        .baseUnit("seconds")
        .register(meters);
    Gauge.builder("trainyard.worker.partitions.assigned", () -> assigned(listeners))
        .description("command partitions this worker holds")
        .register(meters);
    Gauge.builder("trainyard.worker.queues.cached", processor::cachedQueues)
        .description("queues of its partitions this worker holds in memory")
        .register(meters);
    Gauge.builder("trainyard.worker.queues.cached.bytes", processor::cachedQueueBytes)
        .description("the heap the queues this worker holds in memory take, as estimated")
        .baseUnit("bytes")
        .register(meters);
  }

  private static void gauge(
      MeterRegistry meters, String name, String description, LongSupplier read) {
    Recent recent = new Recent(read);
    // strongly held: a gauge keeps its object weakly, and nothing else holds this one (it read NaN
    // after the first collection of the heap)
    Gauge.builder(name, recent, Recent::value)
        .description(description)
        .strongReference(true)
        .register(meters);
  }

  private static int assigned(KafkaListenerEndpointRegistry listeners) {
    MessageListenerContainer container = listeners.getListenerContainer(CommandListener.ID);
    Collection<?> partitions = container == null ? null : container.getAssignedPartitions();
    return partitions == null ? 0 : partitions.size();
  }

  /**
   * A store count read again once it is older than {@link #STORE_READ_EVERY}; NaN if unreadable.
   */
  private static final class Recent {
    private final LongSupplier read;
    private double value = Double.NaN;
    private long readAt;

    Recent(LongSupplier read) {
      this.read = read;
    }

    synchronized double value() {
      long now = System.nanoTime();
      if (Double.isNaN(value) || now - readAt > STORE_READ_EVERY.toNanos()) {
        try {
          value = read.getAsLong();
        } catch (RuntimeException e) {
          value = Double.NaN; // the store is away: the readiness check says so
        }
        readAt = now;
      }
      return value;
    }
  }
}

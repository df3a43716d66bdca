package dev.trainyard.webhooks.delivery;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records attempts in batches: outcomes gathered over a few milliseconds go to the store in one
 * round trip. An outcome lost in a crash leaves its delivery claimed until the lease lapses; it is
 * then attempted again with the same {@code webhook-id} (at least once, as promised).
 */
final class OutcomeWriter implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(OutcomeWriter.class);
  private static final int MAX_BATCH = 500;
  private final DeliveryStore store;
  private final BlockingQueue<DeliveryStore.Outcome> pending = new LinkedBlockingQueue<>();
  private final ScheduledExecutorService flusher = Executors.newSingleThreadScheduledExecutor();

  OutcomeWriter(DeliveryStore store) {
    this.store = store;
    flusher.scheduleWithFixedDelay(this::flush, 5, 5, TimeUnit.MILLISECONDS);
  }

  void add(DeliveryStore.Outcome outcome) {
    pending.add(outcome);
  }

  private void flush() {
    List<DeliveryStore.Outcome> batch = new ArrayList<>();
    pending.drainTo(batch, MAX_BATCH);
    if (batch.isEmpty()) {
      return;
    }
    try {
      store.attemptedAll(batch);
    } catch (RuntimeException e) {
      log.warn("could not record {} attempts; retrying: {}", batch.size(), e.toString());
      pending.addAll(batch);
    }
  }

  @Override
  public void close() {
    flusher.shutdown();
    try {
      flusher.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    flush();
  }
}

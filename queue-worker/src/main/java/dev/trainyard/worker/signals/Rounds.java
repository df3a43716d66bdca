package dev.trainyard.worker.signals;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs rounds of work on a thread of its own, one at a time: a trigger while a round runs is
 * skipped, the next one starts it again. A round that reads a source host may wait out a rate limit
 * for a minute; on the scheduler's single thread, which every queue's timers share, it would hold
 * them all.
 */
public final class Rounds implements AutoCloseable {
  private final ExecutorService thread;
  private final AtomicBoolean running = new AtomicBoolean();

  /** Rounds on a daemon thread named {@code name}. */
  public Rounds(String name) {
    this.thread =
        Executors.newSingleThreadExecutor(
            work -> {
              Thread t = new Thread(work, name);
              t.setDaemon(true);
              return t;
            });
  }

  /** Starts {@code round} unless one is running. */
  public void trigger(Runnable round) {
    if (running.compareAndSet(false, true)) {
      thread.execute(
          () -> {
            try {
              round.run();
            } finally {
              running.set(false);
            }
          });
    }
  }

  /** No round's thread outlives its owner. */
  @Override
  public void close() {
    thread.shutdownNow();
  }
}

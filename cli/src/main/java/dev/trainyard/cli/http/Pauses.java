package dev.trainyard.cli.http;

import java.time.Duration;

/**
 * How the client waits between attempts and polls, and the clock it measures its budgets with: the
 * real ones, or a test's that moves when it pauses.
 */
public interface Pauses {
  Pauses SLEEP =
      new Pauses() {
        @Override
        public void pause(Duration pause) throws InterruptedException {
          Thread.sleep(pause.toMillis());
        }

        @Override
        public long nanoTime() {
          return System.nanoTime();
        }
      };

  void pause(Duration pause) throws InterruptedException;

  /** A monotonic time in nanoseconds, as {@link System#nanoTime()}. */
  long nanoTime();
}

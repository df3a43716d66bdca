package dev.trainyard.gateway.config;

import java.time.Duration;
import org.reactivestreams.Publisher;
import org.springframework.context.SmartLifecycle;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;

/**
 * Work a gateway replica does every {@code every} while it runs (started and stopped with the
 * application): one sweep at a time, a tick that comes while one runs is dropped. A sweep handles
 * its own errors; one that fails ends, and the next tick starts another.
 */
public abstract class PeriodicSweep implements SmartLifecycle {
  private final Duration every;
  private volatile Disposable sweeping;

  protected PeriodicSweep(Duration every) {
    this.every = every;
  }

  /** One sweep. */
  protected abstract Publisher<?> sweepOnce();

  /** Whether this replica sweeps at all (a feature not configured, an interval of 0). */
  protected boolean sweeps() {
    return !every.isZero() && !every.isNegative();
  }

  @Override
  public void start() {
    if (!sweeps()) {
      return;
    }
    sweeping =
        Flux.interval(every, every)
            .onBackpressureDrop()
            .concatMap(tick -> sweepOnce(), 1)
            .subscribe();
  }

  @Override
  public void stop() {
    Disposable running = sweeping;
    if (running != null) {
      running.dispose();
    }
    sweeping = null;
  }

  @Override
  public boolean isRunning() {
    return sweeping != null;
  }
}

package dev.trainyard.webhooks.outbound;

import dev.trainyard.common.net.OutboundGuard;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Name lookups for delivery connections, kept where a slow one holds up nothing else: on {@value
 * #THREADS} threads of their own (never an event loop or a delivery thread), one lookup in flight
 * per name (every delivery to a slow name waits on the same one), each given up after a timeout,
 * and refused at once while {@value #WAITING} wait. An answer reaches nobody before the guard
 * checked every address in it.
 */
final class CheckedLookups implements AutoCloseable {
  static final int THREADS = 8;
  static final int WAITING = 1000;
  private final OutboundGuard guard;
  private final Duration timeout;
  private final ThreadPoolExecutor threads;
  private final Map<String, CompletableFuture<List<InetAddress>>> inFlight =
      new ConcurrentHashMap<>();

  CheckedLookups(OutboundGuard guard, Duration timeout) {
    this.guard = guard;
    this.timeout = timeout;
    AtomicInteger count = new AtomicInteger();
    this.threads =
        new ThreadPoolExecutor(
            THREADS,
            THREADS,
            60,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(WAITING),
            task -> {
              Thread thread = new Thread(task, "trainyard-webhook-dns-" + count.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            });
    threads.allowCoreThreadTimeOut(true);
  }

  /**
   * The checked addresses of {@code host}; fails with the guard's refusal, or with an {@link
   * UnknownHostException} when it does not resolve in time.
   */
  CompletableFuture<List<InetAddress>> addresses(String host) {
    String name = host.toLowerCase(Locale.ROOT);
    CompletableFuture<List<InetAddress>> mine = new CompletableFuture<>();
    CompletableFuture<List<InetAddress>> running = inFlight.putIfAbsent(name, mine);
    if (running != null) {
      return running;
    }
    mine.whenComplete((addresses, error) -> inFlight.remove(name, mine));
    CompletableFuture.delayedExecutor(timeout.toMillis(), TimeUnit.MILLISECONDS, Runnable::run)
        .execute(
            () ->
                mine.completeExceptionally(
                    new UnknownHostException(
                        name + " gave no DNS answer within " + timeout.toMillis() + " ms")));
    try {
      threads.execute(() -> lookUp(name, mine));
    } catch (RejectedExecutionException e) {
      mine.completeExceptionally(
          new UnknownHostException(
              WAITING + " DNS lookups are waiting; " + name + " was not tried"));
    }
    return mine;
  }

  private void lookUp(String name, CompletableFuture<List<InetAddress>> result) {
    try {
      result.complete(guard.addresses(name));
    } catch (Exception e) {
      result.completeExceptionally(e);
    }
  }

  @Override
  public void close() {
    threads.shutdownNow();
  }
}

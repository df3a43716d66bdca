package dev.trainyard.flaky.ingest;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executor;

/**
 * Runs blocking work one at a time per key, in the order it was submitted, without parking a thread
 * for the work that waits: each submission is chained behind the key's previous one and handed to
 * the executor only when that one has finished (failed or not). So a burst of uploads to one
 * repository occupies one worker thread, not one per upload. The map holds only keys with work in
 * flight: the last one to finish removes its entry. Work once submitted runs to its end even if
 * nobody waits for it any more (a client that gave up must not let the next upload interleave).
 */
public final class PerKeySerializer {
  private final ConcurrentMap<String, CompletableFuture<?>> tails = new ConcurrentHashMap<>();
  private final Executor executor;

  public PerKeySerializer(Executor executor) {
    this.executor = executor;
  }

  public <T> CompletableFuture<T> submit(String key, Callable<T> work) {
    @SuppressWarnings("unchecked")
    CompletableFuture<T>[] mine = new CompletableFuture[1];
    tails.compute(
        key,
        (k, before) -> {
          CompletableFuture<?> after =
              before == null ? CompletableFuture.completedFuture(null) : before;
          mine[0] = after.handle((v, e) -> null).thenApplyAsync(x -> call(work), executor);
          return mine[0];
        });
    CompletableFuture<T> chained = mine[0];
    chained.whenComplete((v, e) -> tails.remove(key, chained));
    return chained.copy(); // a caller cancelling its copy cannot unchain the work behind it
  }

  /** Keys with work queued or running. */
  public int keysInFlight() {
    return tails.size();
  }

  private static <T> T call(Callable<T> work) {
    try {
      return work.call();
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new CompletionException(e);
    }
  }
}

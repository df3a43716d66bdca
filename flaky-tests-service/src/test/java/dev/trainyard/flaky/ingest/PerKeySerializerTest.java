package dev.trainyard.flaky.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;

/**
 * Work of one key runs one at a time and in order; waiting work is never handed to a worker, so a
 * burst for one repository holds one thread; the map forgets a key when its work is done.
 */
class PerKeySerializerTest {
  /** A worker pool whose queue the test sees and runs by hand. */
  static final class ManualExecutor implements Executor {
    final Deque<Runnable> queued = new ArrayDeque<>();

    @Override
    public void execute(Runnable task) {
      queued.add(task);
    }

    void runNext() {
      queued.poll().run();
    }
  }

  private final ManualExecutor workers = new ManualExecutor();
  private final PerKeySerializer serializer = new PerKeySerializer(workers);
  private final List<String> ran = new ArrayList<>();

  private CompletableFuture<String> submit(String key, String name) {
    return serializer.submit(
        key,
        () -> {
          ran.add(name);
          return name;
        });
  }

  @Test
  void onlyTheHeadOfEachKeyIsHandedToAWorkerAndTheRestFollowInOrder() throws Exception {
    CompletableFuture<String> a1 = submit("acme/rocket", "a1");
    CompletableFuture<String> a2 = submit("acme/rocket", "a2");
    CompletableFuture<String> a3 = submit("acme/rocket", "a3");
    CompletableFuture<String> b1 = submit("acme/other", "b1");

    assertThat(workers.queued).hasSize(2); // a1 and b1: a2, a3 hold no thread
    assertThat(serializer.keysInFlight()).isEqualTo(2);

    workers.runNext(); // a1
    assertThat(a1.get()).isEqualTo("a1");
    assertThat(a2).isNotDone();
    assertThat(workers.queued).hasSize(2); // b1, then a2 handed over only now

    while (!workers.queued.isEmpty()) {
      workers.runNext();
    }

    assertThat(ran).containsExactly("a1", "b1", "a2", "a3");
    assertThat(List.of(a2.get(), a3.get(), b1.get())).containsExactly("a2", "a3", "b1");
    assertThat(serializer.keysInFlight()).isZero();
  }

  @Test
  void aFailureIsTheCallersAndTheNextWorkStillRuns() throws Exception {
    CompletableFuture<String> failing =
        serializer.submit(
            "acme/rocket",
            () -> {
              throw new IllegalStateException("store down");
            });
    CompletableFuture<String> next = submit("acme/rocket", "next");

    workers.runNext();
    workers.runNext();

    assertThat(failing)
        .isCompletedExceptionally()
        .failsWithin(java.time.Duration.ZERO)
        .withThrowableOfType(ExecutionException.class)
        .withMessageContaining("store down");
    assertThat(next.get()).isEqualTo("next");
    assertThat(serializer.keysInFlight()).isZero();
  }

  @Test
  void workNobodyWaitsForStillRunsBeforeTheNext() throws Exception {
    CompletableFuture<String> abandoned = submit("acme/rocket", "abandoned");
    abandoned.cancel(true); // the client went away: the caller's future is cancelled
    CompletableFuture<String> next = submit("acme/rocket", "next");

    while (!workers.queued.isEmpty()) {
      workers.runNext();
    }

    assertThat(next.get()).isEqualTo("next");
    assertThat(ran).containsExactly("abandoned", "next");
  }
}

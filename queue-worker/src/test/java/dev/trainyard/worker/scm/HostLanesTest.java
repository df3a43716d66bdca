package dev.trainyard.worker.scm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToIntFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What a slow host, a busy group and a closing worker may and may not hold back. */
class HostLanesTest {
  private static final Duration PATIENCE = Duration.ofSeconds(10);

  /** Released at the end of each test, so no blocked task outlives it. */
  private final CountDownLatch gate = new CountDownLatch(1);

  private final List<String> opened = Collections.synchronizedList(new ArrayList<>());
  private HostLanes lanes;

  private HostLanes lanes(ToIntFunction<String> limits) {
    lanes = new HostLanes("test", limits, opened::add);
    return lanes;
  }

  @AfterEach
  void close() {
    gate.countDown();
    if (lanes != null) {
      lanes.close();
    }
  }

  /** A task that waits at the gate, counted in {@code running} while it does. */
  private Runnable blocked(AtomicInteger running) {
    return () -> {
      running.incrementAndGet();
      try {
        gate.await(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        running.decrementAndGet();
      }
    };
  }

  @Test
  void aSlowHostHoldsOnlyItsOwnThreads() throws InterruptedException {
    HostLanes lanes = lanes(host -> 2);
    AtomicInteger slow = new AtomicInteger();
    for (int i = 0; i < 3; i++) {
      lanes.execute("slow.example", "queue-" + i, blocked(slow), () -> {});
    }
    await().atMost(PATIENCE).until(() -> slow.get() == 2);

    CountDownLatch other = new CountDownLatch(1);
    lanes.execute("github.com", "queue-0", other::countDown, () -> {});

    assertThat(other.await(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
    assertThat(slow.get()).isEqualTo(2);
    assertThat(lanes.waiting("slow.example")).isEqualTo(1);
    assertThat(opened).containsExactly("slow.example", "github.com");
  }

  @Test
  void aHostNeverRunsMoreThanItsLimit() {
    HostLanes lanes = lanes(host -> 3);
    AtomicInteger running = new AtomicInteger();
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger most = new AtomicInteger();
    AtomicInteger ended = new AtomicInteger();
    Runnable held = blocked(running);
    for (int i = 0; i < 50; i++) {
      lanes.execute(
          "git.example",
          "queue-" + i % 5,
          () -> {
            // counted on entry in one step: reading `running` and adding one raced with the
            // other tasks' entries and could see 2 of 3 at once (a CI run failed so)
            most.accumulateAndGet(inside.incrementAndGet(), Math::max);
            held.run();
            inside.decrementAndGet();
            ended.incrementAndGet();
          },
          () -> {});
    }
    await().atMost(PATIENCE).until(() -> running.get() == 3);
    assertThat(lanes.waiting("git.example")).isEqualTo(47);

    gate.countDown();

    await().atMost(PATIENCE).until(() -> ended.get() == 50);
    assertThat(most.get()).isEqualTo(3);
    assertThat(lanes.waiting("git.example")).isZero();
  }

  @Test
  void aBusyQueueLeavesOneOfItsHostsThreadsForTheOthers() throws InterruptedException {
    HostLanes lanes = lanes(host -> 3);
    AtomicInteger hot = new AtomicInteger();
    for (int i = 0; i < 5; i++) {
      lanes.execute("github.com", "hot", blocked(hot), () -> {});
    }
    await().atMost(PATIENCE).until(() -> hot.get() == 2);

    CountDownLatch quiet = new CountDownLatch(1);
    lanes.execute("github.com", "quiet", quiet::countDown, () -> {});

    assertThat(quiet.await(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
    assertThat(hot.get()).isEqualTo(2);
    assertThat(lanes.waiting("github.com")).isEqualTo(3);
  }

  @Test
  void groupsTakeTurnsSoAQuietOneWaitsForAtMostOneOfABusyOnes() {
    HostLanes lanes = lanes(host -> 1);
    List<String> order = Collections.synchronizedList(new ArrayList<>());
    AtomicInteger first = new AtomicInteger();
    lanes.execute(
        "github.com",
        "hot",
        () -> {
          order.add("hot-0");
          blocked(first).run();
        },
        () -> {});
    await().atMost(PATIENCE).until(() -> first.get() == 1);
    for (int i = 1; i <= 3; i++) {
      String name = "hot-" + i;
      lanes.execute("github.com", "hot", () -> order.add(name), () -> {});
    }
    lanes.execute("github.com", "quiet", () -> order.add("quiet-1"), () -> {});

    gate.countDown();

    await().atMost(PATIENCE).until(() -> order.size() == 5);
    assertThat(order).containsExactly("hot-0", "hot-1", "quiet-1", "hot-2", "hot-3");
  }

  @Test
  void closingDropsWhatWaitsAndRefusesWhatComes() {
    HostLanes lanes = lanes(host -> 1);
    AtomicInteger running = new AtomicInteger();
    AtomicInteger dropped = new AtomicInteger();
    AtomicInteger ran = new AtomicInteger();
    lanes.execute("github.com", "a", blocked(running), dropped::incrementAndGet);
    await().atMost(PATIENCE).until(() -> running.get() == 1);
    lanes.execute("github.com", "a", ran::incrementAndGet, dropped::incrementAndGet);
    lanes.execute("github.com", "b", ran::incrementAndGet, dropped::incrementAndGet);

    lanes.shutdown();

    assertThat(dropped.get()).isEqualTo(2);
    assertThatThrownBy(() -> lanes.execute("github.com", "c", () -> {}, () -> {}))
        .isInstanceOf(RejectedExecutionException.class);
    gate.countDown();
    await().atMost(PATIENCE).until(() -> running.get() == 0);
    assertThat(ran.get()).isZero();
  }

  @Test
  void hostsBeyondTheCapShareOneLane() {
    HostLanes lanes = lanes(host -> 1);
    for (int i = 0; i < HostLanes.MAX_HOSTS + 10; i++) {
      lanes.execute("host-" + i + ".example", "q", () -> {}, () -> {});
    }

    assertThat(lanes.hosts()).hasSize(HostLanes.MAX_HOSTS + 1).contains(HostLanes.OTHER);
    assertThat(opened).hasSize(HostLanes.MAX_HOSTS + 1).endsWith(HostLanes.OTHER);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "''                                | github.com      | 4",
        "github.com=8, git.example.com=1   | github.com      | 8",
        "github.com=8, git.example.com=1   | GIT.example.com | 1",
        "github.com=8, git.example.com=1   | other.example   | 4",
        "' github.com = 2 ,'               | github.com      | 2",
      })
  void threadsPerHostAreReadFromTheSetting(String setting, String host, int threads) {
    assertThat(HostLanes.limits(4, setting).applyAsInt(host)).isEqualTo(threads);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      value = {
        "github.com      | 'github.com' is not host=threads with at least 1 thread",
        "github.com=0    | 'github.com=0' is not host=threads with at least 1 thread",
        "=3              | '=3' is not host=threads with at least 1 thread",
        "github.com=many | 'github.com=many' is not host=threads with at least 1 thread",
        "a=1=2           | 'a=1=2' is not host=threads with at least 1 thread",
      })
  void aSettingThatIsNotHostEqualsThreadsIsRefused(String setting, String message) {
    assertThatThrownBy(() -> HostLanes.limits(4, setting))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
    assertThatThrownBy(() -> HostLanes.limits(0, ""))
        .hasMessage("threads per host must be at least 1, not 0");
  }
}

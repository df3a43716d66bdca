package dev.trainyard.worker.effects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.telemetry.Traces;
import dev.trainyard.worker.engine.SubmittedQueue;
import dev.trainyard.worker.scm.HostLanes;
import dev.trainyard.worker.scm.ScmProvider;
import dev.trainyard.worker.scm.ScriptedHost;
import dev.trainyard.worker.scm.TestBranchResult;
import dev.trainyard.worker.signals.OwnedQueues;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;

/**
 * The runner gives each repository's host its own threads: a host that does not answer holds its
 * own queues' builds, never another host's.
 */
class EffectLanesTest {
  private static final Instant NOW = Instant.parse("2026-11-30T10:00:00Z");
  private static final String SLOW = "slow.example";

  private final CountDownLatch gate = new CountDownLatch(1);
  private final AtomicInteger slowBuilds = new AtomicInteger();
  private final Map<String, QueueCommand> results = new ConcurrentHashMap<>();
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private final EffectRunner runner = runner();

  @AfterEach
  void close() {
    gate.countDown();
    runner.close();
  }

  @Test
  void aHostThatDoesNotAnswerHoldsOnlyItsOwnQueuesBuilds() {
    for (int i = 0; i < 3; i++) {
      runner.reconcile(
          SubmittedQueue.ready(QueueKey.of("acme", SLOW, "acme", "repo" + i, "main"), NOW));
    }
    await().atMost(Duration.ofSeconds(10)).until(() -> slowBuilds.get() == 2);

    QueueKey github = QueueKey.of("acme", "github.com", "acme", "rocket", "main");
    runner.reconcile(SubmittedQueue.ready(github, NOW));

    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> results.get(github.id()) instanceof QueueCommand.RecordTestBranch);
    assertThat(slowBuilds.get()).isEqualTo(2); // its two threads, the third build waiting
    assertThat(meters.get("trainyard.effects.waiting").tag("host", SLOW).gauge().value())
        .isEqualTo(1.0);
    assertThat(results).containsOnlyKeys(github.id());

    gate.countDown();

    await().atMost(Duration.ofSeconds(10)).until(() -> results.size() == 4);
  }

  private EffectRunner runner() {
    OwnedQueues owned = new OwnedQueues(new KafkaListenerEndpointRegistry(), 1);
    owned.took(List.of(new TopicPartition("queue-commands", 0)), this, 1);
    return new EffectRunner(
        hosts(),
        (key, result, epoch) -> results.put(key.id(), result),
        null, // the sweep is not run here
        owned,
        InstantSource.fixed(NOW),
        Duration.ofSeconds(30),
        HostLanes.limits(2, ""),
        Traces.off(),
        meters);
  }

  /** Builds every test branch, those of {@link #SLOW} only once the gate opens. */
  private ScmProvider hosts() {
    return ScriptedHost.of(
        (method, args) ->
            switch (method) {
              case "serves" -> true;
              case "buildTestBranch" -> {
                if (args[0].toString().contains("/" + SLOW + "/")) {
                  slowBuilds.incrementAndGet();
                  gate.await(30, TimeUnit.SECONDS);
                }
                yield new TestBranchResult.Built(
                    (String) args[2], "base", "tested", List.of("sha-1"));
              }
              default -> throw new UnsupportedOperationException(method);
            });
  }
}

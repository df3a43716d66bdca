package dev.trainyard.standalone.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.topic.Topics;
import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.ClusterHarness;
import dev.trainyard.standalone.support.QueueSteps;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.utils.Utils;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Growing {@code topics.commandPartitions} from 4 to 8 by the procedure of the chart's README,
 * under load (a client submitting PRs to 8 queues all along, retrying while mutations are held):
 * scale the gateways to 0, wait for lag 0, scale the workers to 0, grow the topic, {@code helm
 * upgrade} with the new count. Asserted from the command topic itself, every record read back: each
 * queue's commands before the growth are on one partition (its old one) and after it on one
 * partition (its new one), so no queue was ever processed by two workers; and every PR merged
 * exactly once.
 */
class PartitionGrowthIT {
  private static final int FROM = 4;
  private static final int TO = 8;
  private static final int QUEUES = 8;
  private static final int PRS = 4;
  private static final String WORKERS = "trainyard-queue-worker";
  private static final Duration STEP = Duration.ofMinutes(4);

  @TempDir Path folder;

  @Test
  void growingTheCommandTopicByTheProcedureKeepsEveryQueueOnOnePartitionAtATime() throws Exception {
    Map<String, String> values =
        Map.of(
            "TRAINYARD_CLUSTER_SET",
            "settings.insecureLocalEndpoints=true;topics.commandPartitions="
                + FROM
                + ";queueWorker.listenerConcurrency=2");
    try (ClusterHarness cluster = ClusterHarness.start(folder, values);
        KafkaNodes kafka = new KafkaNodes(cluster)) {
      Admin admin = kafka.admin();
      Api api = cluster.api();
      for (ClusterHarness.Member worker : cluster.members(WORKERS)) {
        worker.awaitAssignedPartitions(n -> n > 0);
      }
      ExecutorService pool = Executors.newSingleThreadExecutor();
      AtomicInteger submitted = new AtomicInteger();
      AtomicLong longestHoldMillis = new AtomicLong();
      CountDownLatch grown = new CountDownLatch(1);
      try (ClusterQueues queues = ClusterQueues.open(cluster, api, QUEUES, PRS)) {
        Future<?> load =
            pool.submit(() -> submitAll(api, queues.names, submitted, longestHoldMillis, grown));
        Awaitility.await().atMost(STEP).until(() -> submitted.get() >= QUEUES * PRS / 3);

        // 1. hold mutations; 2. lag 0, stop the workers, still 0
        cluster.control("scale trainyard-gateway 0", STEP);
        awaitNoLag(admin);
        cluster.control("scale " + WORKERS + " 0", STEP);
        awaitNoLag(admin);
        Map<TopicPartition, Long> boundary = endOffsets(admin, FROM);
        // 3. grow the topic; 4. upgrade: every pod restarts with the new count, the held come back
        admin
            .createPartitions(Map.of(Topics.QUEUE_COMMANDS, NewPartitions.increaseTo(TO)))
            .all()
            .get(1, TimeUnit.MINUTES);
        cluster.control("upgrade topics.commandPartitions=" + TO, Duration.ofMinutes(8));
        grown.countDown();

        load.get(STEP.toSeconds(), TimeUnit.SECONDS);
        for (String name : queues.names) {
          for (long pr = 1; pr <= PRS; pr++) {
            QueueSteps.awaitState(api, name, pr, "merged");
          }
        }
        Map<String, Set<Integer>> before = new TreeMap<>();
        Map<String, Set<Integer>> after = new TreeMap<>();
        int records = 0;
        for (ConsumerRecord<String, String> record : allCommands(kafka)) {
          TopicPartition at = new TopicPartition(record.topic(), record.partition());
          boolean old = record.offset() < boundary.getOrDefault(at, 0L);
          (old ? before : after)
              .computeIfAbsent(record.key(), k -> new TreeSet<>())
              .add(record.partition());
          records++;
        }
        long moved =
            after.keySet().stream()
                .filter(before::containsKey)
                .filter(k -> !before.get(k).equals(after.get(k)))
                .count();
        int mergedOnce = queues.mergedOnce(PRS);
        String report =
            String.format(
                "GROWTH partitions=%d->%d queues=%d prs=%d merged-exactly-once=%d commands=%d"
                    + " queues-moved=%d longest-submit-held=%.1fs before=%s after=%s",
                FROM,
                TO,
                QUEUES,
                QUEUES * PRS,
                mergedOnce,
                records,
                moved,
                longestHoldMillis.get() / 1000.0,
                before,
                after);
        System.out.println(report);
        assertThat(before).as(report).hasSize(QUEUES);
        assertThat(after).as(report).hasSize(QUEUES);
        before.forEach(
            (key, partitions) -> assertThat(partitions).as(report).containsExactly(of(key, FROM)));
        after.forEach(
            (key, partitions) -> assertThat(partitions).as(report).containsExactly(of(key, TO)));
        assertThat(moved).as("the growth moved some queues: the test grew something").isPositive();
        assertThat(mergedOnce).as(report).isEqualTo(QUEUES * PRS);
      } finally {
        pool.shutdownNow();
      }
    }
  }

  /**
   * Submits PRs 1..PRS of every queue with keys, one every 2 s until the growth is done and then
   * without pause, each retried until 200.
   */
  private static Void submitAll(
      Api api,
      List<String> names,
      AtomicInteger submitted,
      AtomicLong longestHoldMillis,
      CountDownLatch grown)
      throws InterruptedException {
    for (long pr = 1; pr <= PRS; pr++) {
      for (String name : names) {
        long first = System.nanoTime();
        while (status(api, name, pr) != 200) {
          Thread.sleep(500);
        }
        longestHoldMillis.accumulateAndGet(
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - first), Math::max);
        submitted.incrementAndGet();
        grown.await(2, TimeUnit.SECONDS);
      }
    }
    return null;
  }

  private static int status(Api api, String name, long pr) {
    try {
      return api.send(
              api.request("/v1/submitPullRequest")
                  .timeout(Duration.ofSeconds(10))
                  .header("Idempotency-Key", "growth-" + name + "-" + pr)
                  .POST(java.net.http.HttpRequest.BodyPublishers.ofString(Api.prBody(name, pr))))
          .status();
    } catch (IllegalStateException e) {
      return -1; // the gateways are held: no connection
    }
  }

  /** Kafka's default partitioner for a record key over {@code partitions}. */
  private static int of(String key, int partitions) {
    return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % partitions;
  }

  /** Waits until the workers' group has read every command written. */
  private static void awaitNoLag(Admin admin) {
    Awaitility.await()
        .atMost(STEP)
        .pollInterval(Duration.ofSeconds(1))
        .ignoreExceptions()
        .until(
            () -> {
              Map<TopicPartition, OffsetAndMetadata> read =
                  admin.listConsumerGroupOffsets(WORKERS).partitionsToOffsetAndMetadata().get();
              return endOffsets(admin, FROM).entrySet().stream()
                  .allMatch(
                      end ->
                          end.getValue() == 0
                              || (read.get(end.getKey()) != null
                                  && read.get(end.getKey()).offset() >= end.getValue()));
            });
  }

  private static Map<TopicPartition, Long> endOffsets(Admin admin, int partitions)
      throws Exception {
    Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
    IntStream.range(0, partitions)
        .forEach(
            p -> latest.put(new TopicPartition(Topics.QUEUE_COMMANDS, p), OffsetSpec.latest()));
    Map<TopicPartition, Long> ends = new HashMap<>();
    for (Map.Entry<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> end :
        admin.listOffsets(latest).all().get().entrySet()) {
      ends.put(end.getKey(), end.getValue().offset());
    }
    return ends;
  }

  /** Every record of the command topic, from the start to the end it has now. */
  private static List<ConsumerRecord<String, String>> allCommands(KafkaNodes kafka)
      throws Exception {
    Map<TopicPartition, Long> ends = endOffsets(kafka.admin(), TO);
    try (KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                kafka.bootstrap(),
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                StringDeserializer.class,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false))) {
      consumer.assign(ends.keySet());
      consumer.seekToBeginning(ends.keySet());
      List<ConsumerRecord<String, String>> records = new java.util.ArrayList<>();
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
      while (ends.entrySet().stream().anyMatch(e -> consumer.position(e.getKey()) < e.getValue())) {
        assertThat(System.nanoTime() - deadline).as("read the command topic").isNegative();
        consumer.poll(Duration.ofMillis(500)).forEach(records::add);
      }
      return records;
    }
  }
}

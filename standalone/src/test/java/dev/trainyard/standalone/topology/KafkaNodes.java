package dev.trainyard.standalone.topology;

import dev.trainyard.standalone.support.ClusterHarness;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;
import org.awaitility.Awaitility;

/**
 * The local cluster's KRaft nodes ({@code kafka-1} …) as the admin client sees them: who leads, who
 * coordinates a group, whether every replica is back in sync (as a rolling restart waits for no
 * under-replicated partition before the next node).
 */
final class KafkaNodes implements AutoCloseable {
  private final String bootstrap;
  private final Admin admin;

  /** The cluster's nodes: {@code kafka-1} … or the one {@code kafka}. */
  KafkaNodes(ClusterHarness cluster) {
    List<ClusterHarness.Member> nodes = cluster.members("kafka");
    bootstrap =
        (nodes.isEmpty() ? List.of(cluster.member("kafka")) : nodes)
            .stream()
                .map(m -> "127.0.0.1:" + m.fields().get("api"))
                .collect(Collectors.joining(","));
    admin =
        Admin.create(
            Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000));
  }

  String bootstrap() {
    return bootstrap;
  }

  Admin admin() {
    return admin;
  }

  /**
   * The process name of the node leading most partitions of {@code topic}; asked again until the
   * cluster answers (after a fault, leadership and metadata may still be moving).
   */
  String leaderOfMost(String topic) {
    return answered(
        () -> {
          Map<Integer, Long> led =
              admin
                  .describeTopics(List.of(topic))
                  .allTopicNames()
                  .get()
                  .get(topic)
                  .partitions()
                  .stream()
                  .filter(p -> p.leader() != null)
                  .collect(Collectors.groupingBy(p -> p.leader().id(), Collectors.counting()));
          return "kafka-"
              + led.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
        });
  }

  /** The process name of the node coordinating consumer group {@code group}, asked until told. */
  String coordinator(String group) {
    return answered(
        () ->
            "kafka-"
                + admin
                    .describeConsumerGroups(List.of(group))
                    .all()
                    .get()
                    .get(group)
                    .coordinator()
                    .id());
  }

  private static String answered(Callable<String> question) {
    return Awaitility.await()
        .atMost(Duration.ofMinutes(2))
        .pollInterval(Duration.ofSeconds(1))
        .ignoreExceptions()
        .until(question, answer -> answer != null);
  }

  /** Waits until every partition of every topic, internal ones too, has all replicas in sync. */
  void awaitInSync(Duration atMost) {
    Awaitility.await()
        .atMost(atMost)
        .pollInterval(Duration.ofSeconds(1))
        .ignoreExceptions()
        .until(() -> underReplicated().isEmpty());
  }

  private List<String> underReplicated() throws Exception {
    Collection<String> topics =
        admin.listTopics(new ListTopicsOptions().listInternal(true)).names().get();
    Map<String, TopicDescription> described = admin.describeTopics(topics).allTopicNames().get();
    return described.values().stream()
        .flatMap(
            t ->
                t.partitions().stream()
                    .filter(p -> p.isr().size() < p.replicas().size())
                    .map(partitionName(t.name())))
        .toList();
  }

  private static Function<TopicPartitionInfo, String> partitionName(String topic) {
    return p -> topic + "-" + p.partition();
  }

  @Override
  public void close() {
    admin.close(Duration.ofSeconds(5));
  }
}

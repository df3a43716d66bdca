package dev.trainyard.worker.config;

import dev.trainyard.common.topic.TopicNames;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * The topics of ARCHITECTURE.md as the workers keep them: created when missing, with what each
 * holds and keeps (commands 24 h, the de-duplication window: a command older is never applied;
 * replies 1 h; events 7 d), {@code min.insync.replicas} 2 on three replicas or more and 1 below
 * (from the replicas the topic really has: a topic made by hand with 2 replicas gets 1, so one
 * broker away does not stop its writes), no unclean leader election, and the broker's default
 * replication unless a setting names one. A setting of ours is written onto an existing topic only
 * where the topic has none of its own (an operator's retention stays).
 *
 * <p>Partitions are never added here: a producer keeps mapping keys to the old count for up to
 * {@code metadata.max.age.ms}, so a queue would be written from two partitions by two workers.
 * Growing is the documented procedure of the chart's README; a command or events topic whose count
 * differs from the setting is refused ({@link Mismatch}). The reply topic may have more partitions
 * than its setting (ADR 0026: gateways read its real count, and it may grow while they run).
 */
public final class TopicLayout {
  static final Duration COMMANDS_KEPT = Duration.ofHours(24);
  static final Duration REPLIES_KEPT = Duration.ofHours(1);
  static final Duration EVENTS_KEPT = Duration.ofDays(7);
  private static final long TIMEOUT_MS = 15_000;

  /**
   * A topic as the workers want it: its partitions, how long it keeps records and the settings of
   * ours it carries on {@code replicas} replicas.
   */
  public record Wanted(
      String name, int partitions, Duration kept, Map<String, String> configs, boolean mayGrow) {
    Wanted(String name, int partitions, Duration kept, int replicas, boolean mayGrow) {
      this(name, partitions, kept, TopicLayout.configs(kept, replicas), mayGrow);
    }

    /** The same topic with the settings its {@code replicas} real replicas call for. */
    Wanted on(int replicas) {
      return new Wanted(name, partitions, kept, replicas, mayGrow);
    }

    /** Whether a topic of {@code count} partitions is acceptable: only the replies may grow. */
    boolean accepts(int count) {
      return mayGrow ? count >= partitions : count == partitions;
    }
  }

  /** A topic whose partition count is not the one the settings say. */
  public static final class Mismatch extends IllegalStateException {
    Mismatch(String message) {
      super(message);
    }
  }

  private TopicLayout() {}

  /** The three topics with {@code replicas} replicas each; only the replies may grow. */
  static List<Wanted> wanted(WorkerProperties props, TopicNames topics, int replicas) {
    return List.of(
        new Wanted(topics.commands(), props.commandPartitions(), COMMANDS_KEPT, replicas, false),
        new Wanted(topics.replies(), props.replyPartitions(), REPLIES_KEPT, replicas, true),
        new Wanted(topics.events(), props.eventPartitions(), EVENTS_KEPT, replicas, false));
  }

  static Map<String, String> configs(Duration kept, int replicas) {
    Map<String, String> configs = new LinkedHashMap<>();
    configs.put(TopicConfig.RETENTION_MS_CONFIG, Long.toString(kept.toMillis()));
    configs.put(TopicConfig.UNCLEAN_LEADER_ELECTION_ENABLE_CONFIG, "false");
    // two copies acknowledged before a write counts, while one broker may be away
    configs.put(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, replicas >= 3 ? "2" : "1");
    return configs;
  }

  /**
   * Creates what is missing, puts our settings where a topic has none of its own, and checks every
   * partition count.
   *
   * @return one line per topic, for the log or the topic Job's output
   * @throws Mismatch when a topic has another partition count than its setting
   */
  public static List<String> apply(Admin admin, WorkerProperties props, TopicNames topics)
      throws Exception {
    int replicas =
        props.replicationFactor() != null
            ? props.replicationFactor()
            : brokerDefaultReplication(admin);
    List<Wanted> wanted = wanted(props, topics, replicas);
    Set<String> existing = get(admin.listTopics().names());
    List<NewTopic> missing = new ArrayList<>();
    for (Wanted w : wanted) {
      if (!existing.contains(w.name())) {
        missing.add(
            new NewTopic(w.name(), Optional.of(w.partitions()), replication(props))
                .configs(w.configs()));
      }
    }
    create(admin, missing);
    Map<String, TopicDescription> found;
    for (int attempt = 1; ; attempt++) {
      try {
        found =
            get(admin.describeTopics(wanted.stream().map(Wanted::name).toList()).allTopicNames());
        Map<String, TopicDescription> described = found;
        completeConfigs(
            admin, wanted.stream().map(w -> w.on(replicas(described.get(w.name())))).toList());
        break;
      } catch (ExecutionException e) {
        // a topic just created is not known to every broker at once
        if (!(e.getCause() instanceof UnknownTopicOrPartitionException) || attempt == 25) {
          throw e;
        }
        Thread.sleep(200);
      }
    }
    List<String> lines = new ArrayList<>();
    List<String> wrong = new ArrayList<>();
    for (Wanted w : wanted) {
      TopicDescription d = found.get(w.name());
      int partitions = d.partitions().size();
      lines.add(w.name() + ": " + partitions + " partitions, " + replicas(d) + " replicas");
      if (!w.accepts(partitions)) {
        wrong.add(
            w.name() + " has " + partitions + " partitions, the setting says " + w.partitions());
      }
    }
    if (!wrong.isEmpty()) {
      throw new Mismatch(
          String.join("; ", wrong)
              + ". Partitions are never added or assumed by a worker: set"
              + " TRAINYARD_WORKER_*_PARTITIONS to the topic's count, or grow the topic by the"
              + " procedure in the Helm chart's README (mutations held, lag 0, grow, restart"
              + " every producer)");
    }
    return lines;
  }

  private static int replicas(TopicDescription topic) {
    return topic.partitions().get(0).replicas().size();
  }

  private static Optional<Short> replication(WorkerProperties props) {
    return Optional.ofNullable(props.replicationFactor());
  }

  private static void create(Admin admin, List<NewTopic> missing) throws Exception {
    if (missing.isEmpty()) {
      return;
    }
    try {
      get(admin.createTopics(missing).all());
    } catch (ExecutionException e) {
      if (!(e.getCause() instanceof TopicExistsException)) {
        throw e; // another worker creating them at the same moment is fine
      }
    }
  }

  /** Sets each of our settings a topic takes from the broker's defaults rather than its own. */
  private static void completeConfigs(Admin admin, List<Wanted> wanted) throws Exception {
    Map<ConfigResource, Wanted> resources = new LinkedHashMap<>();
    wanted.forEach(w -> resources.put(new ConfigResource(ConfigResource.Type.TOPIC, w.name()), w));
    Map<ConfigResource, Config> current = get(admin.describeConfigs(resources.keySet()).all());
    Map<ConfigResource, Collection<AlterConfigOp>> changes = new HashMap<>();
    resources.forEach(
        (resource, w) -> {
          List<AlterConfigOp> ops = new ArrayList<>();
          w.configs()
              .forEach(
                  (key, value) -> {
                    ConfigEntry entry = current.get(resource).get(key);
                    boolean own =
                        entry != null
                            && entry.source() == ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG;
                    if (!own) {
                      ops.add(
                          new AlterConfigOp(new ConfigEntry(key, value), AlterConfigOp.OpType.SET));
                    }
                  });
          if (!ops.isEmpty()) {
            changes.put(resource, ops);
          }
        });
    if (!changes.isEmpty()) {
      get(admin.incrementalAlterConfigs(changes).all());
    }
  }

  /**
   * The replication a topic created without one gets: the broker's {@code
   * default.replication.factor}.
   */
  private static int brokerDefaultReplication(Admin admin) throws Exception {
    String node = get(admin.describeCluster().nodes()).iterator().next().idString();
    ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, node);
    ConfigEntry entry =
        get(admin.describeConfigs(List.of(broker)).all())
            .get(broker)
            .get("default.replication.factor");
    return entry == null || entry.value() == null ? 1 : Integer.parseInt(entry.value());
  }

  private static <T> T get(org.apache.kafka.common.KafkaFuture<T> future)
      throws InterruptedException, ExecutionException, TimeoutException {
    return future.get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
  }
}

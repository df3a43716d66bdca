package dev.trainyard.standalone.infra;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.properties.MetaPropertiesEnsemble;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;

/**
 * A real single-node Apache Kafka broker in KRaft mode (broker and controller in one), with its log
 * directory formatted on first start and reused after: topics and offsets survive a restart.
 */
public final class KafkaBroker implements AutoCloseable {
  private final KafkaRaftServer server;
  private final int port;

  private KafkaBroker(KafkaRaftServer server, int port) {
    this.server = server;
    this.port = port;
  }

  /** One node of a KRaft cluster whose nodes are each broker and controller. */
  public record Node(int id, int port, int controllerPort) {
    /** {@code id:port:controllerPort}, as {@link #parse} reads it. */
    @Override
    public String toString() {
      return id + ":" + port + ":" + controllerPort;
    }

    /** The nodes of {@code id:port:controllerPort,...}. */
    public static List<Node> parse(String nodes) {
      return Arrays.stream(nodes.split(","))
          .map(n -> n.split(":"))
          .map(
              f -> new Node(Integer.parseInt(f[0]), Integer.parseInt(f[1]), Integer.parseInt(f[2])))
          .toList();
    }
  }

  /** A broker of its own: a cluster of one node. */
  public static KafkaBroker start(Path dataDir, int port, int controllerPort) throws Exception {
    Node self = new Node(1, port, controllerPort);
    return start(dataDir, self, List.of(self), Uuid.randomUuid().toString());
  }

  /**
   * Node {@code self} of the cluster {@code quorum} (every node a voter): internal topics and the
   * default replication on up to three nodes, two in sync when there are three or more, as a
   * production cluster runs. {@code clusterId} is the same for every node; a node's folder, once
   * formatted, keeps it across restarts.
   */
  public static KafkaBroker start(Path dataDir, Node self, List<Node> quorum, String clusterId)
      throws Exception {
    Files.createDirectories(dataDir);
    String replicas = Integer.toString(Math.min(3, quorum.size()));
    String inSync = quorum.size() >= 3 ? "2" : "1";
    Map<String, Object> p = new HashMap<>();
    p.put("process.roles", "broker,controller");
    p.put("node.id", Integer.toString(self.id()));
    p.put(
        "controller.quorum.voters",
        quorum.stream()
            .map(n -> n.id() + "@127.0.0.1:" + n.controllerPort())
            .collect(Collectors.joining(",")));
    p.put(
        "listeners",
        "PLAINTEXT://127.0.0.1:"
            + self.port()
            + ",CONTROLLER://127.0.0.1:"
            + self.controllerPort());
    p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + self.port());
    p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    p.put("controller.listener.names", "CONTROLLER");
    p.put("inter.broker.listener.name", "PLAINTEXT");
    p.put("log.dirs", dataDir.toAbsolutePath().toString());
    p.put("offsets.topic.replication.factor", replicas);
    p.put("offsets.topic.num.partitions", "1");
    p.put("transaction.state.log.replication.factor", replicas);
    p.put("transaction.state.log.min.isr", inSync);
    p.put("share.coordinator.state.topic.replication.factor", replicas);
    p.put("share.coordinator.state.topic.min.isr", inSync);
    p.put("min.insync.replicas", inSync);
    p.put("default.replication.factor", replicas);
    p.put("unclean.leader.election.enable", "false");
    p.put("group.initial.rebalance.delay.ms", "0");
    p.put("auto.create.topics.enable", "false");
    KafkaConfig config = new KafkaConfig(p, false);
    if (!Files.exists(dataDir.resolve(MetaPropertiesEnsemble.META_PROPERTIES_NAME))) {
      new Formatter()
          .setPrintStream(System.out)
          .setNodeId(config.nodeId())
          .setClusterId(clusterId)
          .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION)
          .setControllerListenerName(config.controllerListenerNames().get(0))
          .setMetadataLogDirectory(config.metadataLogDir())
          .setDirectories(config.logDirs())
          .setHasDynamicQuorum(false)
          .run();
    }
    KafkaRaftServer server = new KafkaRaftServer(config, Time.SYSTEM);
    server.startup();
    return new KafkaBroker(server, self.port());
  }

  public String bootstrapServers() {
    return "127.0.0.1:" + port;
  }

  @Override
  public void close() {
    server.shutdown();
    server.awaitShutdown();
  }
}

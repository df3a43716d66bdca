package dev.trainyard.standalone.infra;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
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

  public static KafkaBroker start(Path dataDir, int port, int controllerPort) throws Exception {
    Files.createDirectories(dataDir);
    Map<String, Object> p = new HashMap<>();
    p.put("process.roles", "broker,controller");
    p.put("node.id", "1");
    p.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
    p.put(
        "listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
    p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
    p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    p.put("controller.listener.names", "CONTROLLER");
    p.put("inter.broker.listener.name", "PLAINTEXT");
    p.put("log.dirs", dataDir.toAbsolutePath().toString());
    p.put("offsets.topic.replication.factor", "1");
    p.put("offsets.topic.num.partitions", "1");
    p.put("transaction.state.log.replication.factor", "1");
    p.put("transaction.state.log.min.isr", "1");
    p.put("share.coordinator.state.topic.replication.factor", "1");
    p.put("share.coordinator.state.topic.min.isr", "1");
    p.put("min.insync.replicas", "1");
    p.put("default.replication.factor", "1");
    p.put("group.initial.rebalance.delay.ms", "0");
    p.put("auto.create.topics.enable", "false");
    KafkaConfig config = new KafkaConfig(p, false);
    if (!Files.exists(dataDir.resolve(MetaPropertiesEnsemble.META_PROPERTIES_NAME))) {
      new Formatter()
          .setPrintStream(System.out)
          .setNodeId(config.nodeId())
          .setClusterId(Uuid.randomUuid().toString())
          .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION)
          .setControllerListenerName(config.controllerListenerNames().get(0))
          .setMetadataLogDirectory(config.metadataLogDir())
          .setDirectories(config.logDirs())
          .setHasDynamicQuorum(false)
          .run();
    }
    KafkaRaftServer server = new KafkaRaftServer(config, Time.SYSTEM);
    server.startup();
    return new KafkaBroker(server, port);
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

package dev.trainyard.standalone.guarantees;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trainyard.common.topic.TopicNames;
import dev.trainyard.common.topic.Topics;
import dev.trainyard.standalone.infra.FreePorts;
import dev.trainyard.standalone.infra.KafkaBroker;
import dev.trainyard.worker.config.TopicLayout;
import dev.trainyard.worker.config.WorkerProperties;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The workers lay the topics out on a real broker: created with what each keeps, an operator's own
 * retention left alone, and partitions never added: a topic with another count than the setting is
 * refused, whichever way it differs.
 */
class TopicLayoutTest {
  private KafkaBroker broker;
  private Admin admin;

  @BeforeEach
  void start() throws Exception {
    Path dir = Files.createTempDirectory("topic-layout");
    broker = KafkaBroker.start(dir, FreePorts.next(), FreePorts.next());
    admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()));
  }

  @AfterEach
  void stop() {
    admin.close();
    broker.close();
  }

  @Test
  void missingTopicsAreCreatedWithWhatEachKeeps() throws Exception {
    List<String> lines = TopicLayout.apply(admin, props(6), TopicNames.DEFAULT);

    assertThat(lines)
        .containsExactly(
            Topics.QUEUE_COMMANDS + ": 6 partitions, 1 replicas",
            Topics.QUEUE_REPLIES + ": 4 partitions, 1 replicas",
            Topics.EVENTS + ": 12 partitions, 1 replicas");
    assertThat(config(Topics.QUEUE_COMMANDS, "retention.ms")).isEqualTo("86400000");
    assertThat(config(Topics.QUEUE_REPLIES, "retention.ms")).isEqualTo("3600000");
    assertThat(config(Topics.EVENTS, "retention.ms")).isEqualTo("604800000");
    assertThat(config(Topics.EVENTS, "unclean.leader.election.enable")).isEqualTo("false");
    assertThat(config(Topics.QUEUE_COMMANDS, "min.insync.replicas"))
        .as("one replica (the broker's default here): one in sync")
        .isEqualTo("1");
  }

  @Test
  void anOperatorsOwnRetentionStaysAndOursIsAddedBesideIt() throws Exception {
    admin
        .createTopics(
            List.of(
                new NewTopic(Topics.EVENTS, 12, (short) 1)
                    .configs(Map.of("retention.ms", "1209600000"))))
        .all()
        .get();

    TopicLayout.apply(admin, props(6), TopicNames.DEFAULT);

    assertThat(config(Topics.EVENTS, "retention.ms")).isEqualTo("1209600000");
    assertThat(config(Topics.EVENTS, "unclean.leader.election.enable")).isEqualTo("false");
  }

  @Test
  void aTopicWithMorePartitionsOrFewerIsRefusedAndNeverGrown() throws Exception {
    TopicLayout.apply(admin, props(6), TopicNames.DEFAULT);

    assertThatThrownBy(() -> TopicLayout.apply(admin, props(8), TopicNames.DEFAULT))
        .isInstanceOf(TopicLayout.Mismatch.class)
        .hasMessageContaining(Topics.QUEUE_COMMANDS + " has 6 partitions, the setting says 8");
    assertThat(partitions(Topics.QUEUE_COMMANDS)).as("not grown").isEqualTo(6);
    assertThatThrownBy(() -> TopicLayout.apply(admin, props(4), TopicNames.DEFAULT))
        .isInstanceOf(TopicLayout.Mismatch.class)
        .hasMessageContaining("has 6 partitions, the setting says 4");
  }

  /**
   * Topics made by hand with fewer replicas than the setting: each gets the in-sync minimum its
   * real replicas allow (before: the setting's 3 gave 2, and a one-replica topic took no write).
   */
  @Test
  void theInSyncMinimumFollowsTheReplicasATopicReallyHas() throws Exception {
    admin
        .createTopics(
            List.of(
                new NewTopic(Topics.QUEUE_COMMANDS, 6, (short) 1),
                new NewTopic(Topics.QUEUE_REPLIES, 4, (short) 1),
                new NewTopic(Topics.EVENTS, 12, (short) 1)))
        .all()
        .get();

    TopicLayout.apply(
        admin, new WorkerProperties(6, null, null, (short) 3, null), TopicNames.DEFAULT);

    for (String topic : List.of(Topics.QUEUE_COMMANDS, Topics.QUEUE_REPLIES, Topics.EVENTS)) {
      assertThat(config(topic, "min.insync.replicas")).as(topic).isEqualTo("1");
    }
  }

  /** The reply topic may have grown (ADR 0026): a worker starts; the other two must match. */
  @Test
  void aGrownReplyTopicIsAcceptedTheOthersAreNot() throws Exception {
    admin.createTopics(List.of(new NewTopic(Topics.QUEUE_REPLIES, 8, (short) 1))).all().get();

    assertThat(TopicLayout.apply(admin, props(6), TopicNames.DEFAULT))
        .contains(Topics.QUEUE_REPLIES + ": 8 partitions, 1 replicas");
  }

  private static WorkerProperties props(int commandPartitions) {
    return new WorkerProperties(commandPartitions, null, null, null, null);
  }

  private String config(String topic, String key) throws Exception {
    ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
    Config config = admin.describeConfigs(List.of(resource)).all().get().get(resource);
    return config.get(key).value();
  }

  private int partitions(String topic) throws Exception {
    return admin
        .describeTopics(List.of(topic))
        .allTopicNames()
        .get()
        .get(topic)
        .partitions()
        .size();
  }
}

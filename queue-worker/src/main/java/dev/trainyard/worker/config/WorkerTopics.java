package dev.trainyard.worker.config;

import dev.trainyard.common.topic.Topics;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.KafkaAdmin;

/**
 * The topics of ARCHITECTURE.md, with the partitions and replication of {@link WorkerProperties}.
 * Every worker creates them at start (and adds partitions when the setting grew); a cluster install
 * creates them once, before the workers roll, with {@code
 * --trainyard.worker.create-topics-and-exit=true} ({@link #createAndExit}), which starts this
 * configuration alone ({@link TopicsOnly}): no consumer joins the group, nothing touches the store.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(WorkerProperties.class)
public class WorkerTopics {
  /** The argument that runs a worker image as the chart's topic Job. */
  public static final String CREATE_AND_EXIT = "--trainyard.worker.create-topics-and-exit=true";

  @Bean
  NewTopic queueCommandsTopic(WorkerProperties props) {
    return new NewTopic(
        Topics.QUEUE_COMMANDS, props.commandPartitions(), props.replicationFactor());
  }

  @Bean
  NewTopic queueRepliesTopic(WorkerProperties props) {
    return new NewTopic(Topics.QUEUE_REPLIES, props.replyPartitions(), props.replicationFactor());
  }

  @Bean
  NewTopic eventsTopic(WorkerProperties props) {
    return new NewTopic(Topics.EVENTS, props.eventPartitions(), props.replicationFactor());
  }

  /**
   * Creates the topics (or adds the partitions a grown setting asks for), prints one line per topic
   * and closes the context.
   *
   * @return the process exit code: 0 when every topic exists with its partitions, 1 otherwise
   */
  public static int createAndExit(ConfigurableApplicationContext context) {
    KafkaAdmin admin = context.getBean(KafkaAdmin.class);
    Map<String, NewTopic> wanted = new TreeMap<>();
    context.getBeansOfType(NewTopic.class).values().forEach(t -> wanted.put(t.name(), t));
    int code = 0;
    try {
      admin.setFatalIfBrokerNotAvailable(true);
      admin.initialize();
      Map<String, TopicDescription> found =
          admin.describeTopics(wanted.keySet().toArray(String[]::new));
      for (NewTopic topic : wanted.values()) {
        TopicDescription description = found.get(topic.name());
        int partitions = description == null ? 0 : description.partitions().size();
        boolean enough = partitions >= topic.numPartitions();
        code = enough ? code : 1;
        System.out.println(
            topic.name()
                + ": "
                + partitions
                + " partitions"
                + (enough ? "" : ", wanted " + topic.numPartitions()));
      }
    } catch (RuntimeException e) {
      System.err.println("trainyard worker: could not create the topics: " + e.getMessage());
      code = 1;
    }
    int exit = code;
    return SpringApplication.exit(context, () -> exit);
  }
}

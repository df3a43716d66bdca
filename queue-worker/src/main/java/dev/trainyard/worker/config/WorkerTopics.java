package dev.trainyard.worker.config;

import dev.trainyard.common.topic.TopicNames;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.errors.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.KafkaAdmin;

/**
 * The topics of ARCHITECTURE.md laid out by {@link TopicLayout}: every worker checks them before
 * its consumers start (creating what is missing, never adding partitions, refusing to start on a
 * partition count other than its setting); a cluster install creates them once, before the workers
 * roll, with {@code --trainyard.worker.create-topics-and-exit=true} ({@link #createAndExit}), which
 * starts this configuration alone ({@link TopicsOnly}): no consumer joins the group, nothing
 * touches the store.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(WorkerProperties.class)
public class WorkerTopics {
  /** The argument that runs a worker image as the chart's topic Job. */
  public static final String CREATE_AND_EXIT = "--trainyard.worker.create-topics-and-exit=true";

  private static final Logger log = LoggerFactory.getLogger(WorkerTopics.class);

  /**
   * Lays the topics out before any consumer starts. A broker that does not answer is not a reason
   * to stay down (the consumers wait for it, and the topic Job made the topics); a topic with
   * another partition count is (this worker would own the wrong queues), and so is a refusal, such
   * as a missing ACL, which the next try would meet again.
   */
  @Bean
  SmartInitializingSingleton topicsChecked(
      KafkaAdmin kafka, WorkerProperties props, TopicNames topics) {
    return () -> {
      try (Admin admin = Admin.create(kafka.getConfigurationProperties())) {
        TopicLayout.apply(admin, props, topics).forEach(line -> log.info("topic {}", line));
      } catch (TopicLayout.Mismatch e) {
        throw e;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while checking the topics", e);
      } catch (TimeoutException e) {
        log.warn("could not check the topics, the broker did not answer: {}", e.toString());
      } catch (ExecutionException e) {
        if (!brokerAway(e)) {
          throw new IllegalStateException(
              "could not check the topics (the ACLs a worker needs are in ARCHITECTURE.md's"
                  + " topic table): "
                  + e.getCause(),
              e);
        }
        log.warn("could not check the topics, the broker did not answer: {}", e.toString());
      } catch (Exception e) {
        throw new IllegalStateException("could not check the topics", e);
      }
    };
  }

  /**
   * Whether a failed check may wait for the broker: a retriable error (no leader, a timeout, a
   * broker away) may; a refusal (no ACL, a policy, an invalid config) would refuse again.
   */
  static boolean brokerAway(ExecutionException failed) {
    return failed.getCause() instanceof RetriableException;
  }

  /**
   * Creates the topics (never adding partitions), prints one line per topic and closes the context.
   *
   * @return the process exit code: 0 when every topic exists with its partitions, 1 otherwise
   */
  public static int createAndExit(ConfigurableApplicationContext context) {
    int code = 0;
    try (Admin admin =
        Admin.create(context.getBean(KafkaAdmin.class).getConfigurationProperties())) {
      List<String> lines =
          TopicLayout.apply(
              admin, context.getBean(WorkerProperties.class), context.getBean(TopicNames.class));
      lines.forEach(System.out::println);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      code = 1;
    } catch (Exception e) {
      System.err.println("trainyard worker: the topics are not as the settings say: " + e);
      code = 1;
    }
    int exit = code;
    return SpringApplication.exit(context, () -> exit);
  }
}

package dev.trainyard.worker;

import dev.trainyard.common.boot.Rule;
import dev.trainyard.common.boot.ServiceMain;
import dev.trainyard.common.boot.Setting;
import dev.trainyard.worker.config.TopicsOnly;
import dev.trainyard.worker.config.WorkerTopics;
import java.util.Arrays;
import java.util.List;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The queue worker as a service of its own (Kubernetes); the standalone embeds it. With {@value
 * WorkerTopics#CREATE_AND_EXIT} it only creates the topics and exits (the chart's topic Job).
 */
@SpringBootApplication
public class WorkerApplication {
  /** The settings of API.md §6 the worker reads, checked before it starts. */
  static final List<Setting> SETTINGS =
      List.of(
          Setting.optional("trainyard.worker.command-partitions", Rule.POSITIVE_COUNT),
          Setting.optional("trainyard.worker.event-partitions", Rule.POSITIVE_COUNT),
          Setting.optional("trainyard.worker.reply-partitions", Rule.POSITIVE_COUNT),
          Setting.optional("trainyard.worker.replication-factor", Rule.POSITIVE_COUNT),
          Setting.optional("trainyard.worker.listener-concurrency", Rule.POSITIVE_COUNT),
          Setting.optional("trainyard.worker.release-partitions-after", Rule.DURATION),
          Setting.optional("trainyard.worker.rejoin-after", Rule.DURATION),
          Setting.optional("trainyard.max-queue-prs", Rule.POSITIVE_COUNT),
          Setting.optional("trainyard.scm.poll-interval", Rule.DURATION),
          Setting.optional("trainyard.status-settle", Rule.DURATION),
          Setting.optional("trainyard.github.reconcile-interval", Rule.DURATION),
          Setting.optional("trainyard.git.root", Rule.TEXT),
          Setting.optional("trainyard.git.cache", Rule.TEXT),
          Setting.optional("trainyard.git.allow-loopback", Rule.BOOLEAN),
          Setting.optional("trainyard.webhook.key", Rule.KEY_32_BYTES),
          Setting.optional("trainyard.webhook.previous-keys", Rule.TEXT));

  public static void main(String[] args) {
    // its defaults live in application-worker.properties, as when the standalone composes it
    if (Arrays.asList(args).contains(WorkerTopics.CREATE_AND_EXIT)) {
      // one attempt, by createAndExit, whose outcome is the exit code
      String[] once = Arrays.copyOf(args, args.length + 2);
      once[args.length] = "--spring.kafka.admin.auto-create=false";
      once[args.length + 1] = "--logging.level.org.apache.kafka=warn";
      System.exit(
          WorkerTopics.createAndExit(
              ServiceMain.start(
                  TopicsOnly.class, "worker", WebApplicationType.NONE, SETTINGS, args)));
    }
    ServiceMain.start(WorkerApplication.class, "worker", null, SETTINGS, args);
  }
}

package dev.trainyard.worker.config;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of the queue worker.
 *
 * @param commandPartitions partitions of {@code trainyard.queue-commands}: the unit of scaling
 * @param eventPartitions partitions of {@code trainyard.events}
 * @param replyPartitions partitions of {@code trainyard.queue-replies}
 * @param replicationFactor replication of the topics the worker creates (unset: the broker's {@code
 *     default.replication.factor})
 * @param publicUrl the base URL of the gateway, for links in events
 */
@ConfigurationProperties("trainyard.worker")
public record WorkerProperties(
    Integer commandPartitions,
    Integer eventPartitions,
    Integer replyPartitions,
    Short replicationFactor,
    String publicUrl) {

  public WorkerProperties {
    commandPartitions = commandPartitions == null ? 12 : commandPartitions;
    eventPartitions = eventPartitions == null ? 12 : eventPartitions;
    replyPartitions = replyPartitions == null ? 4 : replyPartitions;
    publicUrl = publicUrl == null ? "http://localhost:8080" : publicUrl;
  }
}

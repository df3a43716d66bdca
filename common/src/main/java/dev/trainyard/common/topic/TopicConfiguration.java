package dev.trainyard.common.topic;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * {@link TopicNames} in every service, under {@code trainyard.kafka.topic-prefix} ({@code
 * TRAINYARD_KAFKA_TOPIC_PREFIX}); listeners name their topics and groups through it ({@code
 * #{@topicNames.commands()}}).
 */
@AutoConfiguration
public class TopicConfiguration {

  @Bean
  TopicNames topicNames(
      @Value("${trainyard.kafka.topic-prefix:" + TopicNames.DEFAULT_PREFIX + "}") String prefix) {
    return new TopicNames(prefix);
  }
}

package dev.trainyard.worker.config;

import dev.trainyard.common.topic.TopicConfiguration;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.context.annotation.Import;

/**
 * The application of {@code --trainyard.worker.create-topics-and-exit=true}: {@link WorkerTopics}
 * with Kafka's auto-configuration and nothing else. Not a {@code @Configuration}, so the worker's
 * own component scan never picks it up.
 */
@ImportAutoConfiguration({KafkaAutoConfiguration.class, TopicConfiguration.class})
@Import(WorkerTopics.class)
public final class TopicsOnly {}

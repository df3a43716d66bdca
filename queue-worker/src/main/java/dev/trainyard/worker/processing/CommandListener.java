package dev.trainyard.worker.processing;

import dev.trainyard.common.command.CommandEnvelope;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.topic.Topics;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;

/**
 * Feeds queue commands to the processor, one partition per thread. The offset is committed only
 * after {@link CommandProcessor#process} returns; on an exception the error handler seeks back and
 * the record is delivered again.
 */
@Component
public class CommandListener {
  public static final String ID = "queue-commands";
  private final CommandProcessor processor;

  public CommandListener(CommandProcessor processor) {
    this.processor = processor;
  }

  @KafkaListener(
      id = ID,
      topics = Topics.QUEUE_COMMANDS,
      groupId = "${trainyard.worker.group-id:trainyard-queue-worker}",
      concurrency = "${trainyard.worker.listener-concurrency:2}")
  public void onCommand(ConsumerRecord<String, String> record) {
    processor.process(Json.mapper().readValue(record.value(), CommandEnvelope.class));
  }
}

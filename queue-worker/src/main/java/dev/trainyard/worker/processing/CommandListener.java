package dev.trainyard.worker.processing;

import dev.trainyard.common.command.CommandEnvelope;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.topic.Topics;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;

/**
 * Feeds each poll's queue commands to the processor, partitions spread over the listener threads.
 * The offsets are committed only after {@link CommandProcessor#process} returns; on an exception
 * the error handler delivers the same records again (for as long as it takes).
 */
@Component
public class CommandListener {
  public static final String ID = "queue-commands";
  private static final Logger log = LoggerFactory.getLogger(CommandListener.class);
  private final CommandProcessor processor;

  public CommandListener(CommandProcessor processor) {
    this.processor = processor;
  }

  @KafkaListener(
      id = ID,
      topics = Topics.QUEUE_COMMANDS,
      groupId = "${trainyard.worker.group-id:trainyard-queue-worker}",
      concurrency = "${trainyard.worker.listener-concurrency:2}",
      batch = "true")
  public void onCommands(List<ConsumerRecord<String, String>> records) {
    List<CommandEnvelope> envelopes = new ArrayList<>(records.size());
    for (ConsumerRecord<String, String> record : records) {
      try {
        envelopes.add(Json.mapper().readValue(record.value(), CommandEnvelope.class));
      } catch (JacksonException e) {
        log.error(
            "skipping unreadable command at {}-{}@{}",
            record.topic(),
            record.partition(),
            record.offset(),
            e);
      }
    }
    processor.process(envelopes);
  }
}

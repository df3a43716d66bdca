package dev.trainyard.worker.processing;

import dev.trainyard.common.command.CommandEnvelope;
import dev.trainyard.common.json.Json;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;

/**
 * Feeds each poll's queue commands to the processor, partitions spread over the listener threads.
 * The offsets are committed only after {@link CommandProcessor#process} returns; on an exception
 * the error handler delivers the same records again (for as long as it takes). When one thread's
 * polls have failed for longer than {@code TRAINYARD_WORKER_RELEASE_PARTITIONS_AFTER} (default 60
 * s: the store or the brokers unreachable from this worker alone), the worker leaves the consumer
 * group for {@code TRAINYARD_WORKER_REJOIN_AFTER} (30 s) so that the others take its partitions,
 * then joins again.
 */
@Component
public class CommandListener {
  public static final String ID = "queue-commands";
  private static final Logger log = LoggerFactory.getLogger(CommandListener.class);
  private final CommandProcessor processor;
  private final ObjectProvider<KafkaListenerEndpointRegistry> registry;
  private final Duration rejoinAfter;
  private final ThreadLocal<FailingStreak> streaks;
  private final ScheduledExecutorService rejoin =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "rejoin-consumer-group");
            t.setDaemon(true);
            return t;
          });

  public CommandListener(
      CommandProcessor processor,
      ObjectProvider<KafkaListenerEndpointRegistry> registry,
      @Value("${trainyard.worker.release-partitions-after:60s}") Duration releaseAfter,
      @Value("${trainyard.worker.rejoin-after:30s}") Duration rejoinAfter) {
    this.processor = processor;
    this.registry = registry;
    this.rejoinAfter = rejoinAfter;
    this.streaks = ThreadLocal.withInitial(() -> new FailingStreak(releaseAfter, System::nanoTime));
  }

  @KafkaListener(
      id = ID,
      topics = "#{@topicNames.commands()}",
      groupId = "${trainyard.worker.group-id:#{@topicNames.group('queue-worker')}}",
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
    try {
      processor.process(envelopes);
      streaks.get().succeeded();
    } catch (RuntimeException e) {
      if (streaks.get().failed()) {
        release(e);
      }
      throw e;
    }
  }

  /** Leaves the group (without blocking this consumer thread) and joins again later. */
  private void release(RuntimeException cause) {
    MessageListenerContainer container = registry.getObject().getListenerContainer(ID);
    if (container == null || !container.isRunning()) {
      return;
    }
    log.warn(
        "polls have failed for too long ({}); leaving the consumer group for {} so that other"
            + " workers take these partitions",
        cause.toString(),
        rejoinAfter);
    container.stop(
        () -> rejoin.schedule(container::start, rejoinAfter.toMillis(), TimeUnit.MILLISECONDS));
  }
}

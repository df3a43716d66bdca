package dev.trainyard.worker.store;

import com.mongodb.ErrorCategory;
import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import dev.trainyard.common.command.DeadCommand;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.view.Collections;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Collection;
import org.bson.Document;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.mongodb.core.MongoTemplate;

/**
 * Keeps the commands queues could not apply ({@link DeadCommand}). Each is logged at ERROR and
 * counted ({@code trainyard_dead_commands_total}) the first time it is recorded, not again when a
 * redelivery records it once more.
 */
public class DeadCommandStore {
  private static final Logger log = LoggerFactory.getLogger(DeadCommandStore.class);
  private final MongoCollection<Document> dead;
  private final Counter recorded;

  public DeadCommandStore(MongoTemplate mongo, MeterRegistry meters) {
    this.dead = mongo.getCollection(Collections.DEAD_COMMANDS);
    this.recorded =
        Counter.builder("trainyard.dead.commands")
            .description("Commands a queue could not apply, kept for an operator to replay")
            .register(meters);
  }

  /** Records each command (again: a no-op). */
  public void record(Collection<DeadCommand> commands) {
    for (DeadCommand command : commands) {
      try {
        dead.insertOne(Json.document(command));
      } catch (MongoWriteException e) {
        if (ErrorCategory.fromErrorCode(e.getCode()) != ErrorCategory.DUPLICATE_KEY) {
          throw e;
        }
        continue;
      }
      recorded.increment();
      log.error(
          "command {} of queue {} could not be applied and is kept as a dead command: {}",
          command.id(),
          command.envelope().queue().id(),
          command.error());
    }
  }

  /** How many commands are kept: recorded, not yet replayed or dismissed. */
  public long pending() {
    return dead.countDocuments();
  }

  /** Forgets records written for commands that were decided again (their queue write lost). */
  public void forget(Collection<String> ids) {
    if (!ids.isEmpty()) {
      dead.deleteMany(Filters.in("_id", ids));
    }
  }
}

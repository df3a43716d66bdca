package dev.trainyard.standalone.infra;

import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.wire.message.MongoMessage;
import io.netty.channel.Channel;
import java.util.Locale;
import java.util.Set;

/**
 * The H2 file backend, committed after every write before it is acknowledged. H2's MVStore
 * otherwise commits in the background about once a second, so a killed process (SIGKILL, OOM kill,
 * power loss) would lose writes the services had already been told were durable — and a worker that
 * committed its Kafka offsets after such a write would lose the command.
 */
final class DurableH2Backend extends H2Backend {
  private static final Set<String> WRITES =
      Set.of("insert", "update", "delete", "findandmodify", "createindexes", "drop");

  DurableH2Backend(String fileName) {
    super(fileName);
  }

  @Override
  public Document handleCommand(
      Channel channel, String databaseName, String command, Document query) {
    Document result = super.handleCommand(channel, databaseName, command, query);
    if (WRITES.contains(command.toLowerCase(Locale.ROOT))) {
      commit();
    }
    return result;
  }

  @Override
  public Document handleMessage(MongoMessage message) {
    Document result = super.handleMessage(message);
    commit();
    return result;
  }
}

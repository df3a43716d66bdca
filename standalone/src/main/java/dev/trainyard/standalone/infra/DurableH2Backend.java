package dev.trainyard.standalone.infra;

import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.wire.message.MongoMessage;
import io.netty.channel.Channel;
import java.util.Locale;
import java.util.Set;
import java.util.function.Supplier;
import org.h2.mvstore.MVStore;

/**
 * The H2 file backend, made safe for the standalone's use:
 *
 * <ul>
 *   <li>Every write is committed before it is acknowledged. H2's MVStore otherwise commits in the
 *       background about once a second, so a killed process (SIGKILL, OOM kill, power loss) would
 *       lose writes the services had already been told were durable — and a worker that committed
 *       its Kafka offsets after such a write would lose the command.
 *   <li>Every command holds on to the store version it reads. A query scans a snapshot of the
 *       collection; without that registration, commits and the background compaction of other
 *       connections may drop the chunks the scan still has to read once they are older than the
 *       retention time, and a long scan (tens of thousands of documents) failed with "Chunk … not
 *       found" — a 500 for a plain listing.
 * </ul>
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
    Document result =
        readingOneVersion(() -> super.handleCommand(channel, databaseName, command, query));
    if (WRITES.contains(command.toLowerCase(Locale.ROOT))) {
      commit();
    }
    return result;
  }

  @Override
  public Document handleMessage(MongoMessage message) {
    Document result = readingOneVersion(() -> super.handleMessage(message));
    commit();
    return result;
  }

  private Document readingOneVersion(Supplier<Document> command) {
    MVStore store = getMvStore();
    MVStore.TxCounter reading = store.registerVersionUsage();
    try {
      return command.get();
    } finally {
      store.deregisterVersionUsage(reading);
    }
  }
}

package dev.trainyard.standalone.infra;

import de.bwaldvogel.mongo.MongoServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * The embedded MongoDB-wire store (mongo-java-server with {@link DurableH2Backend}): on disk for
 * the standalone run, in memory for tests. Real MongoDB is the production target.
 */
public final class DocumentStore implements AutoCloseable {
  private final MongoServer server;
  private final DurableH2Backend backend;
  private final int port;

  private DocumentStore(DurableH2Backend backend, int port) {
    this.backend = backend;
    this.server = new MongoServer(backend);
    this.server.bind("127.0.0.1", port);
    this.port = server.getLocalAddress().getPort();
  }

  /** A store whose data lives in {@code dir} and survives restarts. */
  public static DocumentStore onDisk(Path dir, int port) throws IOException {
    Files.createDirectories(dir);
    return new DocumentStore(new DurableH2Backend(dir.resolve("trainyard.mv").toString()), port);
  }

  /** A store in memory with the on-disk store's backend (its index use included), for tests. */
  public static DocumentStore inMemory() {
    return new DocumentStore(new DurableH2Backend(null), 0);
  }

  /**
   * A plain connection string for database {@code db}, as an operator would give one: the services'
   * own client timeouts ({@code common}'s {@code StoreClient}) make it fail fast.
   */
  public String uri(String db) {
    return "mongodb://127.0.0.1:" + port + "/" + db;
  }

  /**
   * Tells {@code listener} the shape of every query no index serves (collection, operation, the
   * fields it constrains, its order): tests hold the services to indexed queries with it, as
   * MongoDB's {@code notablescan} would.
   */
  public void onUnindexedQuery(Consumer<String> listener) {
    backend.onUnindexedQuery(listener);
  }

  public int port() {
    return port;
  }

  @Override
  public void close() {
    server.shutdownNow();
    backend.close();
  }
}

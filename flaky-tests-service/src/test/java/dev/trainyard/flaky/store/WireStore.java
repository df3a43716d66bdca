package dev.trainyard.flaky.store;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import java.net.InetSocketAddress;
import org.springframework.data.mongodb.core.MongoTemplate;

/**
 * A real MongoDB-wire store in memory for the store-facing unit tests, reached over a socket
 * through the same driver and template the service uses.
 */
public final class WireStore implements AutoCloseable {
  private final MongoServer server = new MongoServer(new MemoryBackend());
  private final MongoClient client;
  private final MongoTemplate mongo;

  public WireStore() {
    InetSocketAddress address = server.bind();
    client = MongoClients.create("mongodb://127.0.0.1:" + address.getPort());
    mongo = new MongoTemplate(client, "flaky");
  }

  public MongoTemplate mongo() {
    return mongo;
  }

  @Override
  public void close() {
    client.close();
    server.shutdownNow();
  }
}

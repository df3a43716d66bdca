package dev.trainyard.standalone.support;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import dev.trainyard.common.boot.StoreClient;
import dev.trainyard.standalone.infra.DocumentStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;
import org.bson.BsonDocument;
import org.springframework.data.mongodb.core.MongoTemplate;

/**
 * The embedded store and a client whose command listener keeps every command the driver sends, as
 * sent (write and read concerns included): what a test asserts the store was told.
 */
public final class RecordedStore implements AutoCloseable {
  private final DocumentStore documents = DocumentStore.inMemory();
  private final List<BsonDocument> sent = new CopyOnWriteArrayList<>();
  private final MongoClient client;
  private final MongoTemplate mongo;

  private RecordedStore(BiConsumer<MongoClientSettings.Builder, ConnectionString> configure) {
    ConnectionString uri = new ConnectionString(documents.uri("trainyard"));
    MongoClientSettings.Builder settings = MongoClientSettings.builder().applyConnectionString(uri);
    configure.accept(settings, uri);
    settings.addCommandListener(
        new CommandListener() {
          @Override
          public void commandStarted(CommandStartedEvent event) {
            // a copy: the driver reuses the event's buffer once the listener returns
            sent.add(event.getCommand().clone());
          }
        });
    client = MongoClients.create(settings.build());
    mongo = new MongoTemplate(client, "trainyard");
  }

  /** A client with the driver's defaults. */
  public static RecordedStore withDefaults() {
    return new RecordedStore((settings, uri) -> {});
  }

  /** A client configured as every service's is ({@link StoreClient}). */
  public static RecordedStore asTheServicesConfigureIt() {
    return new RecordedStore(
        (settings, uri) ->
            StoreClient.configure(
                settings,
                uri,
                Duration.ofSeconds(2),
                Duration.ofSeconds(2),
                Duration.ofSeconds(10)));
  }

  public MongoTemplate mongo() {
    return mongo;
  }

  /** The commands sent so far, in order (each named by its first key). */
  public List<BsonDocument> sent() {
    return List.copyOf(sent);
  }

  public void forget() {
    sent.clear();
  }

  @Override
  public void close() {
    client.close();
    documents.close();
  }
}

package dev.trainyard.standalone.guarantees;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import dev.trainyard.common.boot.StoreClient;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.view.Collections;
import dev.trainyard.standalone.infra.DocumentStore;
import dev.trainyard.worker.store.QueueStore;
import dev.trainyard.worker.store.StoredQueue;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.bson.BsonDocument;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.mongodb.core.MongoTemplate;

/**
 * What the driver is told, seen through its command listener on a client configured as every
 * service's is ({@link StoreClient}): writes wait for a journaled majority, the writes left
 * unjournaled on purpose still wait for a majority, and the reads that decide deletes read what a
 * majority has. A replica set honours these (Testcontainers suites where Docker runs); the embedded
 * store takes and ignores them.
 */
class StoreConcernsTest {
  private static final QueueKey KEY = QueueKey.of("org", "github.com", "acme", "rocket", "main");

  /** Copies: the driver reuses an event's buffer once the listener returns. */
  private final List<BsonDocument> sent = new CopyOnWriteArrayList<>();

  private DocumentStore documents;
  private MongoClient client;
  private MongoTemplate mongo;

  @BeforeEach
  void start() {
    documents = DocumentStore.inMemory();
    ConnectionString uri = new ConnectionString(documents.uri("trainyard"));
    MongoClientSettings.Builder settings = MongoClientSettings.builder().applyConnectionString(uri);
    StoreClient.configure(
        settings, uri, Duration.ofSeconds(2), Duration.ofSeconds(2), Duration.ofSeconds(10));
    settings.addCommandListener(
        new CommandListener() {
          @Override
          public void commandStarted(CommandStartedEvent event) {
            sent.add(event.getCommand().clone());
          }
        });
    client = MongoClients.create(settings.build());
    mongo = new MongoTemplate(client, "trainyard");
  }

  @AfterEach
  void stop() {
    client.close();
    documents.close();
  }

  @Test
  void writesWaitForAJournaledMajorityAndDeletingReadsReadWhatAMajorityHas() {
    QueueStore store = new QueueStore(mongo, QueueStore.DEFAULT_MAX_DOCUMENT_BYTES);
    StoredQueue first =
        SplitQueueStoreTest.write(
            store, SplitQueueStoreTest.full(KEY), StoredQueue.absent(KEY.id(), "org"));
    sent.clear();
    SplitQueueStoreTest.write(
        store, SplitQueueStoreTest.next(first, SplitQueueStoreTest.recordState(3)), first);
    store.load(KEY.id());

    assertThat(concern("update", Collections.QUEUES))
        .isEqualTo(BsonDocument.parse("{w: 'majority', j: true, wtimeout: 5000}"));
    assertThat(concern("insert", Collections.QUEUE_ENTRIES))
        .as("entry documents: unjournaled on purpose (ADR 0022), still on a majority")
        .isEqualTo(BsonDocument.parse("{w: 'majority', j: false, wtimeout: 5000}"));
    assertThat(read("find", Collections.QUEUE_ENTRIES).getDocument("readConcern"))
        .isEqualTo(BsonDocument.parse("{level: 'majority'}"));
    assertThat(read("find", Collections.QUEUES).getDocument("readConcern"))
        .isEqualTo(BsonDocument.parse("{level: 'majority'}"));
  }

  private BsonDocument concern(String command, String collection) {
    return read(command, collection).getDocument("writeConcern");
  }

  private BsonDocument read(String command, String collection) {
    return sent.stream()
        .filter(c -> c.isString(command) && c.getString(command).getValue().equals(collection))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + command + " on " + collection + ": " + sent));
  }
}

package dev.trainyard.standalone.guarantees;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.boot.StoreClient;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.view.Collections;
import dev.trainyard.standalone.support.QueueVersions;
import dev.trainyard.standalone.support.RecordedStore;
import dev.trainyard.worker.store.QueueStore;
import dev.trainyard.worker.store.StoredQueue;
import java.util.List;
import org.bson.BsonDocument;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the driver is told, seen through its command listener on a client configured as every
 * service's is ({@link StoreClient}): writes wait for a journaled majority, the writes left
 * unjournaled on purpose still wait for a majority, and the reads that decide deletes read what a
 * majority has. A replica set honours these (Testcontainers suites where Docker runs); the embedded
 * store takes and ignores them.
 */
class StoreConcernsTest {
  private static final QueueKey KEY = QueueKey.of("org", "github.com", "acme", "rocket", "main");

  private RecordedStore recorded;

  @BeforeEach
  void start() {
    recorded = RecordedStore.asTheServicesConfigureIt();
  }

  @AfterEach
  void stop() {
    recorded.close();
  }

  @Test
  void writesWaitForAJournaledMajorityAndDeletingReadsReadWhatAMajorityHas() {
    QueueStore store = new QueueStore(recorded.mongo(), QueueStore.DEFAULT_MAX_DOCUMENT_BYTES);
    StoredQueue first =
        QueueVersions.write(store, QueueVersions.full(KEY, 3), StoredQueue.absent(KEY.id(), "org"));
    recorded.forget();
    QueueVersions.write(store, QueueVersions.next(first, QueueVersions.recordState(3)), first);
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
    List<BsonDocument> sent = recorded.sent();
    return sent.stream()
        .filter(c -> c.isString(command) && c.getString(command).getValue().equals(collection))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + command + " on " + collection + ": " + sent));
  }
}

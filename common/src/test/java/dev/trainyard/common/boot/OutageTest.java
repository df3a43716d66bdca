package dev.trainyard.common.boot;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.MongoCommandException;
import com.mongodb.MongoConnectionPoolClearedException;
import com.mongodb.MongoException;
import com.mongodb.MongoNotPrimaryException;
import com.mongodb.MongoSocketReadException;
import com.mongodb.MongoTimeoutException;
import com.mongodb.ServerAddress;
import com.mongodb.connection.ClusterId;
import com.mongodb.connection.ServerId;
import java.util.concurrent.CompletionException;
import java.util.stream.Stream;
import org.apache.kafka.common.errors.NotLeaderOrFollowerException;
import org.bson.BsonDocument;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DuplicateKeyException;

/** Which errors are an outage (503) and which are a bug (500), one row per kind. */
class OutageTest {
  private static final ServerAddress STORE = new ServerAddress("store", 27017);

  record Row(String what, Throwable error, boolean outage) {
    @Override
    public String toString() {
      return what + (outage ? " -> outage" : " -> not an outage");
    }
  }

  static Stream<Row> rows() {
    MongoException labelled = new MongoException("write conflict");
    labelled.addLabel("TransientTransactionError");
    MongoConnectionPoolClearedException poolCleared =
        new MongoConnectionPoolClearedException(
            new ServerId(new ClusterId(), STORE), new MongoSocketReadException("eof", STORE));
    return Stream.of(
        new Row("socket closed", new MongoSocketReadException("eof", STORE), true),
        new Row("no server selected", new MongoTimeoutException("timed out"), true),
        new Row("pool paused by another operation's failure", poolCleared, true),
        new Row(
            "that, wrapped as Spring leaves it uncategorized",
            new RuntimeException("uncategorized", poolCleared),
            true),
        new Row(
            "not primary during an election",
            new MongoNotPrimaryException(BsonDocument.parse("{code: 10107}"), STORE),
            true),
        new Row("labelled transient", labelled, true),
        new Row(
            "Spring's resource failure",
            new DataAccessResourceFailureException("store away"),
            true),
        new Row("broker leader moving", new NotLeaderOrFollowerException("moving"), true),
        new Row(
            "reply timeout under a completion wrapper",
            new CompletionException(new java.util.concurrent.TimeoutException()),
            true),
        new Row(
            "a command the store refused",
            new MongoCommandException(
                BsonDocument.parse("{ok: 0, code: 2, errmsg: 'bad value'}"), STORE),
            false),
        new Row("a duplicate key", new DuplicateKeyException("dup"), false),
        new Row("a bug", new IllegalStateException("bug"), false),
        new Row(
            "a bug with a bug under it", new RuntimeException(new NullPointerException()), false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  void tellsAnOutageFromABug(Row row) {
    assertThat(Outage.isOutage(row.error())).isEqualTo(row.outage());
  }
}

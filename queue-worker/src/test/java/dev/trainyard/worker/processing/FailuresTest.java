package dev.trainyard.worker.processing;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.MongoBulkWriteException;
import com.mongodb.MongoSocketReadException;
import com.mongodb.MongoTimeoutException;
import com.mongodb.MongoWriteException;
import com.mongodb.ServerAddress;
import com.mongodb.WriteError;
import com.mongodb.bulk.BulkWriteResult;
import com.mongodb.bulk.WriteConcernError;
import dev.trainyard.worker.engine.UndeclaredTransition;
import dev.trainyard.worker.store.QueueKeptChanging;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.stream.Stream;
import org.bson.BsonDocument;
import org.bson.BsonMaximumSizeExceededException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.dao.DataAccessResourceFailureException;

/** Which failures make a command dead, and which are waited out. */
class FailuresTest {

  static Stream<Arguments> failures() {
    ServerAddress server = new ServerAddress();
    return Stream.of(
        Arguments.of("store unreachable", new MongoTimeoutException("no server"), false),
        Arguments.of("connection lost", new MongoSocketReadException("reset", server), false),
        Arguments.of(
            "Spring's wrapping of an outage",
            new DataAccessResourceFailureException("down", new MongoTimeoutException("x")),
            false),
        Arguments.of(
            "version race exhausted", new IllegalStateException("queues kept changing"), false),
        Arguments.of("a queue replaced on every read", new QueueKeptChanging("org/q", 8), false),
        Arguments.of(
            "the replica set did not confirm a write in time",
            new MongoBulkWriteException(
                BulkWriteResult.acknowledged(0, 0, 0, 0, List.of(), List.of()),
                List.of(),
                new WriteConcernError(64, "WriteConcernFailed", "timed out", new BsonDocument()),
                server,
                Set.of()),
            false),
        Arguments.of(
            "document over 16 MiB", new BsonMaximumSizeExceededException("too large"), true),
        Arguments.of(
            "an engine state change no transition table declares",
            new UndeclaredTransition("test run r cannot move from PASSED to WAITING"),
            true),
        Arguments.of(
            "server refuses the document",
            new MongoWriteException(
                new WriteError(10334, "BSONObjectTooLarge", new BsonDocument()), server),
            true),
        Arguments.of(
            "duplicate key (a race)",
            new MongoWriteException(new WriteError(11000, "dup", new BsonDocument()), server),
            false),
        Arguments.of(
            "a bug, wrapped by a future",
            new CompletionException(new NullPointerException("state")),
            true),
        Arguments.of(
            "a bug with a transient cause inside",
            new IllegalArgumentException("bad", new MongoTimeoutException("x")),
            true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("failures")
  void permanentOnlyWhenItWouldFailAgain(String what, Throwable failure, boolean permanent) {
    assertThat(Failures.isPermanent(failure)).isEqualTo(permanent);
  }
}

package dev.trainyard.common.boot;

import com.mongodb.MongoConnectionPoolClearedException;
import com.mongodb.MongoException;
import com.mongodb.MongoExecutionTimeoutException;
import com.mongodb.MongoNodeIsRecoveringException;
import com.mongodb.MongoNotPrimaryException;
import com.mongodb.MongoOperationTimeoutException;
import com.mongodb.MongoServerUnavailableException;
import com.mongodb.MongoSocketException;
import com.mongodb.MongoTimeoutException;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.common.KafkaException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.TransientDataAccessException;

/**
 * Tells an outage of the broker or the store from a bug: what an HTTP edge answers with 503 and
 * {@code Retry-After} (API.md §1) rather than 500. The driver does not always say "unreachable" in
 * one type: when one operation on a connection pool fails, the others waiting on that pool fail
 * with {@link MongoConnectionPoolClearedException}, which Spring passes on uncategorized; and a
 * replica set electing a new primary answers "not primary" or "recovering". Every cause in the
 * chain is looked at, so a wrapper does not hide the outage under it.
 */
public final class Outage {
  private static final String TRANSIENT_TRANSACTION_ERROR = "TransientTransactionError";

  private Outage() {}

  /** Whether {@code error}, or anything it was caused by, means "cannot reach it right now". */
  public static boolean isOutage(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (isOne(t)) {
        return true;
      }
    }
    return false;
  }

  private static boolean isOne(Throwable t) {
    return t instanceof DataAccessResourceFailureException
        || t instanceof TransientDataAccessException
        || t instanceof MongoSocketException
        || t instanceof MongoTimeoutException
        || t instanceof MongoOperationTimeoutException
        || t instanceof MongoExecutionTimeoutException
        || t instanceof MongoConnectionPoolClearedException
        || t instanceof MongoServerUnavailableException
        || t instanceof MongoNotPrimaryException
        || t instanceof MongoNodeIsRecoveringException
        || (t instanceof MongoException mongo && mongo.hasErrorLabel(TRANSIENT_TRANSACTION_ERROR))
        || t instanceof KafkaException
        || t instanceof org.springframework.kafka.KafkaException
        || t instanceof TimeoutException;
  }
}

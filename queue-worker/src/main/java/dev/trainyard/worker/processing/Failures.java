package dev.trainyard.worker.processing;

import com.mongodb.ErrorCategory;
import com.mongodb.MongoBulkWriteException;
import com.mongodb.MongoWriteException;
import dev.trainyard.worker.engine.UndeclaredTransition;
import dev.trainyard.worker.store.QueueTooLarge;
import java.util.List;
import org.bson.BSONException;
import org.bson.codecs.configuration.CodecConfigurationException;
import tools.jackson.core.JacksonException;

/**
 * Tells a failure that will happen again whatever the wait (a result the store refuses, a bug) from
 * one that passes (the store or the broker away, a timeout). Transient failures are retried with
 * backoff for as long as it takes; a permanent one makes its command dead, so that it does not
 * stall its partition.
 */
final class Failures {
  /**
   * A document over 16 MiB, a value BSON cannot hold, a type without a codec, JSON that cannot be
   * written; and our own code failing on data it cannot handle.
   */
  private static final List<Class<? extends Throwable>> PERMANENT =
      List.of(
          BSONException.class,
          QueueTooLarge.class,
          CodecConfigurationException.class,
          JacksonException.class,
          NullPointerException.class,
          IllegalArgumentException.class,
          ClassCastException.class,
          IndexOutOfBoundsException.class,
          ArithmeticException.class,
          UnsupportedOperationException.class,
          UndeclaredTransition.class);

  private Failures() {}

  /** True when {@code error}, or one of its causes, will fail again on the same input. */
  static boolean isPermanent(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (isPermanentItself(t)) {
        return true;
      }
    }
    return false;
  }

  private static boolean isPermanentItself(Throwable t) {
    if (t instanceof MongoWriteException e) {
      // the server refused the document itself (a duplicate is a version race, not that)
      return !isDuplicate(e.getCode());
    }
    if (t instanceof MongoBulkWriteException e) {
      return e.getWriteErrors().stream().anyMatch(err -> !isDuplicate(err.getCode()));
    }
    return PERMANENT.stream().anyMatch(type -> type.isInstance(t));
  }

  private static boolean isDuplicate(int code) {
    return ErrorCategory.fromErrorCode(code) == ErrorCategory.DUPLICATE_KEY;
  }
}

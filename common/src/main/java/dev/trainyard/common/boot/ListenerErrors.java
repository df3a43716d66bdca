package dev.trainyard.common.boot;

import org.springframework.kafka.listener.CommonErrorHandler;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.support.serializer.DeserializationException;
import org.springframework.util.backoff.ExponentialBackOff;
import tools.jackson.core.JacksonException;

/**
 * How a Kafka listener that stores what it reads meets a failure. Spring Kafka's default tries a
 * record ten times and then commits past it, which loses it when the store is merely down. Here a
 * failure is retried with backoff (100 ms doubling to 5 s) for as long as it takes, with the
 * consumer paused and its offsets uncommitted; only a record that cannot be parsed at all is
 * skipped.
 */
public final class ListenerErrors {
  private ListenerErrors() {}

  public static CommonErrorHandler retryUntilStored() {
    ExponentialBackOff backOff = new ExponentialBackOff(100, 2.0);
    backOff.setMaxInterval(5_000);
    DefaultErrorHandler handler = new DefaultErrorHandler(backOff);
    handler.addNotRetryableExceptions(JacksonException.class, DeserializationException.class);
    return handler;
  }
}

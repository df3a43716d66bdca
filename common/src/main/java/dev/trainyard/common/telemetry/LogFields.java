package dev.trainyard.common.telemetry;

import dev.trainyard.common.queue.QueueKey;
import org.slf4j.MDC;

/**
 * The fields a log line about one command carries besides the trace's ids: its organization, its
 * queue, its pull request (when it concerns one) and its id. Structured logs (ECS, logstash) write
 * them as fields of their own; the plain pattern of the standalone shows them too. Closing removes
 * them again.
 */
public final class LogFields implements AutoCloseable {
  public static final String ORG = "org";
  public static final String QUEUE = "queue";
  public static final String COMMAND_ID = "commandId";
  public static final String PR = "pr";

  private LogFields() {}

  /** Puts the fields (a null one is left out) until {@link #close()}. */
  public static LogFields of(QueueKey queue, String commandId) {
    return of(queue == null ? null : queue.org(), queue == null ? null : queue.id(), commandId);
  }

  /** Puts the fields (a null one is left out) until {@link #close()}. */
  public static LogFields of(QueueKey queue, String commandId, Long pr) {
    put(PR, pr == null ? null : Long.toString(pr));
    return of(queue, commandId);
  }

  /** Puts the fields (a null one is left out) until {@link #close()}. */
  public static LogFields of(String org, String queueId, String commandId) {
    put(ORG, org);
    put(QUEUE, queueId);
    put(COMMAND_ID, commandId);
    return new LogFields();
  }

  private static void put(String key, String value) {
    if (value != null) {
      MDC.put(key, value);
    }
  }

  @Override
  public void close() {
    MDC.remove(ORG);
    MDC.remove(QUEUE);
    MDC.remove(COMMAND_ID);
    MDC.remove(PR);
  }
}

package dev.trainyard.common.command;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.trainyard.common.json.Timestamps;
import java.time.Instant;

/**
 * A command its queue could not apply: the engine threw, or its result could not be stored. It is
 * kept here (collection {@code dead_commands}, keyed by command id) instead of being retried
 * forever, which would stall every queue on its partition. The worker writes it; an operator lists
 * and replays it through the gateway's admin API. {@code at} is a {@link Timestamps} text, so the
 * store orders it as time.
 */
public record DeadCommand(
    @JsonProperty("_id") String id, CommandEnvelope envelope, String error, String at) {

  /** The record of {@code envelope} failing with {@code error} at {@code now}. */
  public static DeadCommand of(CommandEnvelope envelope, Throwable error, Instant now) {
    return new DeadCommand(envelope.commandId(), envelope, describe(error), Timestamps.format(now));
  }

  /**
   * The id a replay of dead command {@code id} is sent under: a fresh id (the dead one is recorded
   * as handled), yet the same for every replay request of it, so a retried replay applies once.
   */
  public static String replayId(String id) {
    return id + "/replay";
  }

  /** The exception and its causes, one {@code Type: message} each, for the operator. */
  private static String describe(Throwable error) {
    StringBuilder text = new StringBuilder();
    for (Throwable t = error; t != null && text.length() < 2_000; t = t.getCause()) {
      if (!text.isEmpty()) {
        text.append(" <- caused by ");
      }
      text.append(t.getClass().getName());
      if (t.getMessage() != null) {
        text.append(": ").append(t.getMessage());
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return text.length() > 2_000 ? text.substring(0, 2_000) : text.toString();
  }
}

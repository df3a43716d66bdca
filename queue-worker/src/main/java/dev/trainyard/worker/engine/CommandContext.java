package dev.trainyard.worker.engine;

import java.time.Instant;
import java.util.UUID;

/**
 * What the engine may know besides state and command: the time, and the command id, from which it
 * derives new ids so that deciding the same command twice yields the same result.
 */
public record CommandContext(String commandId, Instant now) {
  UUID derivedId(String purpose) {
    return UUID.nameUUIDFromBytes(
        (commandId + "/" + purpose).getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }
}

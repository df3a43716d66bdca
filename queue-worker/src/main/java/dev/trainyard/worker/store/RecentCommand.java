package dev.trainyard.worker.store;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.trainyard.common.command.RejectionType;
import java.time.Instant;

/**
 * A command the queue handled, and when, as queue documents remembered them before answers had a
 * collection of their own ({@link AnswerStore}); read from such documents, moved into the next
 * version's outbox, never written again. {@code appliedAt} is null in documents written before it
 * was recorded. {@code refused} is null for a command that was applied; for one handled without
 * being applied it is how it was answered ({@link RejectionType#FAULT}: kept as a dead command;
 * {@link RejectionType#LIMIT_REACHED}: the queue was full), so that a redelivery, or a client's
 * retry under the same {@code Idempotency-Key}, is answered the same way and not told it was
 * accepted.
 */
public record RecentCommand(
    String commandId,
    Instant appliedAt,
    @JsonInclude(JsonInclude.Include.NON_NULL) RejectionType refused) {

  public RecentCommand(String commandId, Instant appliedAt) {
    this(commandId, appliedAt, null);
  }

  /**
   * As an answer of {@code queueId} at {@code version} (the sentence of a refusal was not kept).
   */
  public Answer asAnswer(String queueId, long version) {
    return new Answer(
        commandId, queueId, version, refused, null, appliedAt == null ? Instant.EPOCH : appliedAt);
  }
}

package dev.trainyard.worker.store;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.trainyard.common.command.RejectionType;
import java.time.Instant;

/**
 * How a queue answered one command: accepted ({@code rejection} null, whether or not it changed
 * anything), rejected, refused for size or kept dead ({@code rejection} and its {@code message}).
 * {@code version} is the queue version the answer belongs to: the one the command's batch wrote, or
 * the one it was decided on when the batch changed nothing. A redelivery of the command, or a
 * client's retry under the same {@code Idempotency-Key}, is answered from it and not decided again:
 * deciding it again on a later version could overturn what its first answer said.
 */
public record Answer(
    @JsonProperty("_id") String commandId,
    String queueId,
    long version,
    @JsonInclude(JsonInclude.Include.NON_NULL) RejectionType rejection,
    @JsonInclude(JsonInclude.Include.NON_NULL) String message,
    Instant at) {}

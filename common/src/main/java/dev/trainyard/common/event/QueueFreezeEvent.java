package dev.trainyard.common.event;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.trainyard.common.queue.RepoRef;
import java.time.Instant;

/**
 * A {@code queue.frozen} or {@code queue.unfrozen} webhook body (API.md §7): the queue stopped
 * landing ({@code reason}, {@code until} when it ends by itself) or lands again ({@code expired}:
 * its {@code until} passed rather than {@code unfreezeQueue}).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record QueueFreezeEvent(
    String type,
    RepoRef repository,
    @JsonProperty("target_branch") String targetBranch,
    Instant timestamp,
    String reason,
    Instant until,
    Boolean expired)
    implements PublicEvent {

  public static QueueFreezeEvent frozen(
      RepoRef repository, String targetBranch, Instant at, String reason, Instant until) {
    return new QueueFreezeEvent("queue.frozen", repository, targetBranch, at, reason, until, null);
  }

  public static QueueFreezeEvent unfrozen(
      RepoRef repository, String targetBranch, Instant at, boolean expired) {
    return new QueueFreezeEvent(
        "queue.unfrozen", repository, targetBranch, at, null, null, expired);
  }
}

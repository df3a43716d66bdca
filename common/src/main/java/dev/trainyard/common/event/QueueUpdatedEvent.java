package dev.trainyard.common.event;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.trainyard.common.queue.RepoRef;
import java.time.Instant;

/**
 * A {@code queue.updated} webhook body (API.md §7, extension): an accepted {@code updateQueue}
 * (paused, resumed, drained, settings changed), with the state and settings it left; {@code
 * settings_version} is the version {@code getQueue} now reports (what a settings form sends back as
 * {@code ifSettingsVersion}). Open dashboard pages of the queue read themselves again on it.
 */
public record QueueUpdatedEvent(
    String type,
    RepoRef repository,
    @JsonProperty("target_branch") String targetBranch,
    Instant timestamp,
    String state,
    @JsonProperty("settings_version") String settingsVersion)
    implements PublicEvent {

  public static final String TYPE = "queue.updated";

  public static QueueUpdatedEvent of(
      RepoRef repository, String targetBranch, Instant at, String state, String settingsVersion) {
    return new QueueUpdatedEvent(TYPE, repository, targetBranch, at, state, settingsVersion);
  }
}

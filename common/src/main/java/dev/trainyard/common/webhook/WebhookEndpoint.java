package dev.trainyard.common.webhook;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A subscription of one organization: where events go, which types ({@code eventTypes} null = all;
 * {@code pull_request.*} style prefixes allowed), and the secrets that sign them (newest first).
 * {@code failingSince} is when its current run of failed attempts began (null while healthy); an
 * endpoint is disabled after {@code 410 Gone} or five days of failures. {@code format} is a {@link
 * ChatFormat}'s wire name (null: stored before formats, standard), {@code mentions} its map from a
 * PR author's login to a chat id (null: none).
 */
public record WebhookEndpoint(
    @JsonProperty("_id") String id,
    String org,
    String url,
    List<String> eventTypes,
    String description,
    List<EndpointSecret> secrets,
    Instant createdAt,
    boolean disabled,
    String disabledReason,
    Instant failingSince,
    String format,
    Map<String, String> mentions) {

  public WebhookEndpoint {
    eventTypes = eventTypes == null ? null : List.copyOf(eventTypes);
    secrets = List.copyOf(secrets);
    mentions = mentions == null ? Map.of() : Map.copyOf(mentions);
  }

  public ChatFormat chatFormat() {
    return ChatFormat.of(format);
  }

  public boolean wants(String eventType) {
    return !disabled && EventTypeFilter.matches(eventTypes, eventType);
  }
}

package dev.trainyard.common.webhook;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import java.util.List;

/**
 * A subscription of one organization: where events go, which types ({@code eventTypes} null = all;
 * {@code pull_request.*} style prefixes allowed), and the secrets that sign them (newest first).
 * {@code failingSince} is when its current run of failed attempts began (null while healthy); an
 * endpoint is disabled after {@code 410 Gone} or five days of failures.
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
    Instant failingSince) {

  public WebhookEndpoint {
    eventTypes = eventTypes == null ? null : List.copyOf(eventTypes);
    secrets = List.copyOf(secrets);
  }

  public boolean wants(String eventType) {
    return !disabled && EventTypeFilter.matches(eventTypes, eventType);
  }
}

package dev.trainyard.common.webhook;

import java.time.Instant;

/**
 * One signing secret of an endpoint, encrypted ({@link SecretBox}). {@code retiresAt} is null for
 * the current secret; a rotated-out secret keeps signing until then.
 */
public record EndpointSecret(String encrypted, Instant createdAt, Instant retiresAt) {
  public boolean signsAt(Instant now) {
    return retiresAt == null || now.isBefore(retiresAt);
  }
}

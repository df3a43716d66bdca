package dev.trainyard.common.webhook;

import dev.trainyard.common.view.Collections;
import java.time.Instant;

/**
 * One signing secret of an endpoint, encrypted ({@link SecretBox}). {@code retiresAt} is null for
 * the current secret; a rotated-out secret keeps signing until then.
 */
public record EndpointSecret(String encrypted, Instant createdAt, Instant retiresAt) {
  /** Where the secrets of endpoint {@code endpointId} are sealed for. */
  public static SecretBox.Place place(String endpointId) {
    return new SecretBox.Place(Collections.WEBHOOK_ENDPOINTS, endpointId, "secrets");
  }

  public boolean signsAt(Instant now) {
    return retiresAt == null || now.isBefore(retiresAt);
  }
}

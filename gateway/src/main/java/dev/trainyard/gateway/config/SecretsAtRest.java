package dev.trainyard.gateway.config;

import dev.trainyard.common.webhook.SecretBox;
import dev.trainyard.gateway.http.ApiException;
import org.springframework.stereotype.Component;

/**
 * Seals the secrets the gateway stores (webhook endpoint secrets, remote git credentials) with
 * {@code TRAINYARD_WEBHOOK_KEY}; without the key, storing one is a 503 that names it.
 */
@Component
public class SecretsAtRest {
  private final SecretBox box;

  public SecretsAtRest(GatewayProperties props) {
    String key = props.webhook().key();
    this.box =
        key == null || key.isBlank()
            ? null
            : new SecretBox(key, SecretBox.previousKeys(props.webhook().previousKeys()));
  }

  /** The box, or empty when the gateway has no key. */
  public java.util.Optional<SecretBox> box() {
    return java.util.Optional.ofNullable(box);
  }

  /** {@code secret} sealed for where it is kept ({@link SecretBox.Place}). */
  public String seal(String secret, SecretBox.Place place) {
    if (box == null) {
      throw ApiException.unavailable(
          "secrets cannot be stored here: set TRAINYARD_WEBHOOK_KEY (the key that encrypts"
              + " secrets at rest) on the gateway, the dispatcher and the workers");
    }
    return box.seal(secret, place);
  }
}

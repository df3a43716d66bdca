package dev.trainyard.common.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SecretBoxTest {
  @Test
  void aSealedSecretOpensOnlyWithItsKey() {
    SecretBox box = new SecretBox(SecretBox.newKey());
    String secret = SecretBox.newSecret();

    String sealed = box.seal(secret);

    assertThat(sealed).doesNotContain(secret.substring(6));
    assertThat(box.open(sealed)).isEqualTo(secret);
    assertThat(box.seal(secret)).as("a fresh nonce each time").isNotEqualTo(sealed);
    assertThatThrownBy(() -> new SecretBox(SecretBox.newKey()).open(sealed))
        .hasMessageContaining("wrong key");
  }

  @Test
  void secretsFollowTheStandardWebhooksForm() {
    assertThat(SecretBox.newSecret()).matches("whsec_[A-Za-z0-9+/]{43}=");
  }
}

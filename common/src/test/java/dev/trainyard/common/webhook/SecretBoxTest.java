package dev.trainyard.common.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class SecretBoxTest {
  private static final SecretBox.Place PASSWORD =
      new SecretBox.Place("git_remotes", "acme-org/github.com/acme/rocket", "password");

  @Test
  void aSealedSecretOpensOnlyWithItsKeyAndNamesTheKey() {
    SecretBox box = new SecretBox(SecretBox.newKey());
    String secret = SecretBox.newSecret();

    String sealed = box.seal(secret, PASSWORD);

    assertThat(sealed).startsWith("v2." + box.keyId() + ".").doesNotContain(secret.substring(6));
    assertThat(box.open(sealed, PASSWORD)).isEqualTo(secret);
    assertThat(box.seal(secret, PASSWORD)).as("a fresh nonce each time").isNotEqualTo(sealed);
    SecretBox other = new SecretBox(SecretBox.newKey());
    assertThatThrownBy(() -> other.open(sealed, PASSWORD))
        .hasMessageContaining(box.keyId())
        .hasMessageContaining(other.keyId());
  }

  /** A value copied into another organization's record, or another field, does not open there. */
  @Test
  void aSealedValueMovedToAnotherRecordOrFieldDoesNotOpen() {
    SecretBox box = new SecretBox(SecretBox.newKey());
    String sealed = box.seal("s3cret", PASSWORD);

    for (SecretBox.Place elsewhere :
        new SecretBox.Place[] {
          new SecretBox.Place("git_remotes", "mallory-org/github.com/acme/rocket", "password"),
          new SecretBox.Place("git_remotes", PASSWORD.id(), "privateKey"),
          new SecretBox.Place("webhook_endpoints", PASSWORD.id(), "password")
        }) {
      assertThatThrownBy(() -> box.open(sealed, elsewhere))
          .as(elsewhere.toString())
          .hasMessageContaining("sealed for another record");
    }
  }

  /** Values sealed before places (the service key itself, no associated data) still open. */
  @Test
  void aValueSealedTheOldWayStillOpens() throws Exception {
    String key = SecretBox.newKey();
    byte[] iv = new byte[12];
    new SecureRandom().nextBytes(iv);
    Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
    cipher.init(
        Cipher.ENCRYPT_MODE,
        new SecretKeySpec(Base64.getDecoder().decode(key), "AES"),
        new GCMParameterSpec(128, iv));
    byte[] body = cipher.doFinal("old".getBytes(StandardCharsets.UTF_8));
    byte[] both = new byte[iv.length + body.length];
    System.arraycopy(iv, 0, both, 0, iv.length);
    System.arraycopy(body, 0, both, iv.length, body.length);

    assertThat(new SecretBox(key).open(Base64.getEncoder().encodeToString(both), PASSWORD))
        .isEqualTo("old");
  }

  /** During a rotation the previous key still opens what it sealed; new values take the new key. */
  @Test
  void aPreviousKeyOpensWhatItSealedAndNothingNewIsSealedWithIt() {
    String oldKey = SecretBox.newKey();
    SecretBox old = new SecretBox(oldKey);
    String sealedBefore = old.seal("s3cret", PASSWORD);
    SecretBox rotating = new SecretBox(SecretBox.newKey(), SecretBox.previousKeys(" ," + oldKey));

    assertThat(rotating.open(sealedBefore, PASSWORD)).isEqualTo("s3cret");
    assertThat(rotating.isCurrent(sealedBefore)).isFalse();
    String resealed = rotating.seal("s3cret", PASSWORD);
    assertThat(rotating.isCurrent(resealed)).isTrue();
    assertThatThrownBy(() -> old.open(resealed, PASSWORD)).hasMessageContaining(rotating.keyId());
  }

  /** RFC 5869 test case 3 (SHA-256, no salt, no info): the first 32 bytes of its OKM. */
  @Test
  void derivesKeysAsRfc5869Says() {
    byte[] ikm = HexFormat.of().parseHex("0b".repeat(22));
    assertThat(HexFormat.of().formatHex(SecretBox.derive(ikm, "")))
        .isEqualTo("8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d");
  }

  @Test
  void secretsFollowTheStandardWebhooksForm() {
    assertThat(SecretBox.newSecret()).matches("whsec_[A-Za-z0-9+/]{43}=");
  }
}

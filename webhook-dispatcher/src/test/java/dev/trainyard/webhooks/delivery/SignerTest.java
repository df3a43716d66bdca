package dev.trainyard.webhooks.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.webhook.SecretBox;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Signatures as an independent receiver checks them. */
class SignerTest {
  private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");
  private static final String BODY = "{\"type\":\"pull_request.merged\",\"pr_number\":7}";

  @Test
  void aReceiverVerifiesTheSignatureAndRejectsTamperingAndOldTimestamps() throws Exception {
    String secret = SecretBox.newSecret();
    long ts = NOW.getEpochSecond();
    String header = Signer.signature("msg_1", ts, BODY, List.of(secret));
    SignatureVerifier receiver = new SignatureVerifier(secret);

    assertThat(receiver.verify("msg_1", Long.toString(ts), header, BODY, NOW)).isTrue();
    assertThat(receiver.verify("msg_1", Long.toString(ts), header, BODY.replace('7', '8'), NOW))
        .as("tampered body")
        .isFalse();
    assertThat(receiver.verify("msg_2", Long.toString(ts), header, BODY, NOW))
        .as("another id")
        .isFalse();
    assertThat(receiver.verify("msg_1", Long.toString(ts), header, BODY, NOW.plusSeconds(301)))
        .as("a timestamp over five minutes old")
        .isFalse();
    assertThat(
            new SignatureVerifier(SecretBox.newSecret())
                .verify("msg_1", Long.toString(ts), header, BODY, NOW))
        .as("another secret")
        .isFalse();
  }

  @Test
  void duringARotationBothSecretsSign() throws Exception {
    String old = SecretBox.newSecret();
    String fresh = SecretBox.newSecret();
    long ts = NOW.getEpochSecond();

    String header = Signer.signature("msg_1", ts, BODY, List.of(fresh, old));

    assertThat(header.split(" ")).hasSize(2).allMatch(e -> e.startsWith("v1,"));
    assertThat(new SignatureVerifier(old).verify("msg_1", Long.toString(ts), header, BODY, NOW))
        .isTrue();
    assertThat(new SignatureVerifier(fresh).verify("msg_1", Long.toString(ts), header, BODY, NOW))
        .isTrue();
  }

  @Test
  void theSpecificationsExampleVerifies() throws Exception {
    // the worked example of the Standard Webhooks specification's reference test vectors
    String secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    String body = "{\"test\": 2432232314}";
    String header =
        Signer.signature("msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330L, body, List.of(secret));

    assertThat(header).isEqualTo("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  }
}

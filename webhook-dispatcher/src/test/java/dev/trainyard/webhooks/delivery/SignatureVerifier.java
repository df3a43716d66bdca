package dev.trainyard.webhooks.delivery;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A receiver's check of a Standard Webhooks signature, written from the specification
 * (standardwebhooks.com, "Verifying webhook authenticity") for the tests, sharing no code with
 * {@link Signer}: the signed content is {@code id.timestamp.body}; the key is the base64-decoded
 * part of the secret after {@code whsec_}; the header holds space-separated {@code v1,<base64>}
 * entries, any of which may match; timestamps older or newer than five minutes are rejected.
 */
public final class SignatureVerifier {
  private static final Duration TOLERANCE = Duration.ofMinutes(5);
  private final byte[] key;

  public SignatureVerifier(String secret) {
    this.key = Base64.getDecoder().decode(secret.replaceFirst("^whsec_", ""));
  }

  public boolean verify(
      String id, String timestamp, String signatureHeader, String body, Instant now)
      throws Exception {
    long seconds = Long.parseLong(timestamp);
    if (Math.abs(now.getEpochSecond() - seconds) > TOLERANCE.toSeconds()) {
      return false;
    }
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(key, "HmacSHA256"));
    byte[] expected =
        mac.doFinal((id + "." + timestamp + "." + body).getBytes(StandardCharsets.UTF_8));
    for (String entry : signatureHeader.split(" ")) {
      int comma = entry.indexOf(',');
      if (comma > 0 && entry.substring(0, comma).equals("v1")) {
        byte[] given = Base64.getDecoder().decode(entry.substring(comma + 1));
        if (MessageDigest.isEqual(expected, given)) {
          return true;
        }
      }
    }
    return false;
  }
}

package dev.trainyard.gateway.scm.github;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * GitHub's webhook signature: {@code X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body
 * keyed with the webhook secret>}, compared in constant time.
 */
public final class GithubSignature {
  private static final String PREFIX = "sha256=";

  private GithubSignature() {}

  /** A MAC that signs as GitHub does, to be fed the body as it arrives. */
  public static Mac mac(String secret) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return mac;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HMAC-SHA256 is not available", e);
    }
  }

  /** Whether {@code header} is the signature of what {@code fed} was fed; false when absent. */
  public static boolean verifies(Mac fed, String header) {
    if (header == null || !header.startsWith(PREFIX)) {
      return false;
    }
    return MessageDigest.isEqual(
        (PREFIX + HexFormat.of().formatHex(fed.doFinal())).getBytes(StandardCharsets.US_ASCII),
        header.getBytes(StandardCharsets.US_ASCII));
  }
}

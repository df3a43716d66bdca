package dev.trainyard.common.flaky;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Proof that the organization header came from the gateway: an HMAC-SHA256 of the organization
 * under the secret the gateway and the flaky-tests service share, so a process that can reach the
 * service but does not hold the secret cannot speak for an organization.
 */
public final class OrgSignature {
  private OrgSignature() {}

  public static String sign(String key, String org) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      byte[] digest = mac.doFinal(("trainyard-org\0" + org).getBytes(StandardCharsets.UTF_8));
      return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JVM", e);
    }
  }

  /** Whether {@code signature} is {@code org}'s under {@code key} (compared in constant time). */
  public static boolean verify(String key, String org, String signature) {
    return signature != null
        && MessageDigest.isEqual(
            sign(key, org).getBytes(StandardCharsets.UTF_8),
            signature.getBytes(StandardCharsets.UTF_8));
  }
}

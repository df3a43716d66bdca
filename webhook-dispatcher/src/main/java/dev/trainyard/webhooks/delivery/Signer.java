package dev.trainyard.webhooks.delivery;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.List;
import java.util.stream.Collectors;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Standard Webhooks signatures: {@code v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">}, keyed
 * with the base64 part of {@code whsec_<base64>}; one entry per signing secret, separated by spaces
 * (during a rotation, the old and the new secret both sign).
 */
public final class Signer {
  private static final String PREFIX = "whsec_";

  private Signer() {}

  public static String signature(String id, long timestamp, String body, List<String> secrets) {
    return secrets.stream()
        .map(secret -> "v1," + sign(id + "." + timestamp + "." + body, secret))
        .collect(Collectors.joining(" "));
  }

  private static String sign(String content, String secret) {
    String encoded = secret.startsWith(PREFIX) ? secret.substring(PREFIX.length()) : secret;
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(Base64.getDecoder().decode(encoded), "HmacSHA256"));
      return Base64.getEncoder()
          .encodeToString(mac.doFinal(content.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }
}

package dev.trainyard.common.token;

import dev.trainyard.common.json.Json;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import tools.jackson.core.JacksonException;

/**
 * An opaque paging token: a JSON position, HMAC-signed over the listing (scope) it belongs to, so a
 * tampered, foreign or made-up token is a client error rather than a silently wrong page. Used by
 * the gateway's cursors and the flaky-tests service's page tokens.
 */
public final class SignedToken {
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder DECODER = Base64.getUrlDecoder();
  private static final int MAC_BYTES = 16;

  private SignedToken() {}

  public static String encode(Object position, byte[] secret, String scope) {
    String payload = ENCODER.encodeToString(Json.mapper().writeValueAsBytes(position));
    return payload + "." + ENCODER.encodeToString(mac(secret, scope, payload));
  }

  /**
   * The position, or an {@link InvalidTokenException} naming {@code field} when the token is not
   * one of this listing (another scope, altered, or not a token at all).
   */
  public static <T> T decode(
      String token, Class<T> type, byte[] secret, String scope, String field) {
    InvalidTokenException invalid = new InvalidTokenException(field);
    int dot = token.indexOf('.');
    if (dot <= 0) {
      throw invalid;
    }
    String payload = token.substring(0, dot);
    try {
      byte[] given = DECODER.decode(token.substring(dot + 1));
      if (!MessageDigest.isEqual(given, mac(secret, scope, payload))) {
        throw invalid;
      }
      return Json.mapper().readValue(DECODER.decode(payload), type);
    } catch (IllegalArgumentException | JacksonException e) {
      throw invalid;
    }
  }

  private static byte[] mac(byte[] secret, String scope, String payload) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret, "HmacSHA256"));
      mac.update(scope.getBytes(StandardCharsets.UTF_8));
      mac.update((byte) 0);
      byte[] full = mac.doFinal(payload.getBytes(StandardCharsets.UTF_8));
      return Arrays.copyOf(full, MAC_BYTES);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JVM", e);
    }
  }
}

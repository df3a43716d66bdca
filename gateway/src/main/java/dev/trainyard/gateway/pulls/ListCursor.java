package dev.trainyard.gateway.pulls;

import dev.trainyard.common.json.Json;
import dev.trainyard.gateway.http.ApiException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import tools.jackson.core.JacksonException;

/**
 * A position in a listPullRequests walk: the queue version the walk reads (its snapshot) and the
 * last row returned. Tokens are HMAC-signed over the queue and query they belong to, so a tampered,
 * foreign or made-up cursor is a 400 rather than a silently wrong page.
 */
record ListCursor(long snapshot, String stateChangedAt, String prId) {
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder DECODER = Base64.getUrlDecoder();
  private static final int MAC_BYTES = 16;

  String encode(byte[] secret, String scope) {
    String payload = ENCODER.encodeToString(Json.mapper().writeValueAsBytes(this));
    return payload + "." + ENCODER.encodeToString(mac(secret, scope, payload));
  }

  static ListCursor decode(String token, byte[] secret, String scope) {
    ApiException invalid = ApiException.badRequest("cursor is not a cursor of this listing");
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
      return Json.mapper().readValue(DECODER.decode(payload), ListCursor.class);
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
      return java.util.Arrays.copyOf(full, MAC_BYTES);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JVM", e);
    }
  }
}

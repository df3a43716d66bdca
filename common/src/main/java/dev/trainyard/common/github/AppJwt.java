package dev.trainyard.common.github;

import dev.trainyard.common.json.Json;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Base64;
import java.util.Map;

/**
 * The GitHub App's own credential: a JSON Web Token signed RS256 with the App's private key, issued
 * 60 s in the past (GitHub's advice against clock drift) and valid 9 minutes (GitHub allows 10).
 * One is reused until a minute before it expires.
 */
final class AppJwt {
  static final Duration BACKDATE = Duration.ofSeconds(60);
  static final Duration LIFETIME = Duration.ofMinutes(9);
  private static final Base64.Encoder URL = Base64.getUrlEncoder().withoutPadding();
  private final String appId;
  private final PrivateKey key;
  private final InstantSource clock;
  private String current;
  private Instant expires = Instant.EPOCH;

  AppJwt(String appId, PrivateKey key, InstantSource clock) {
    this.appId = appId;
    this.key = key;
    this.clock = clock;
  }

  /** The App id or client id the tokens are issued as ({@code iss}). */
  String issuer() {
    return appId;
  }

  synchronized String token() {
    Instant now = clock.instant();
    if (now.isBefore(expires.minus(Duration.ofMinutes(1)))) {
      return current;
    }
    Instant issued = now.minus(BACKDATE);
    expires = issued.plus(LIFETIME);
    String header = part(Map.of("alg", "RS256", "typ", "JWT"));
    String claims =
        part(Map.of("iat", issued.getEpochSecond(), "exp", expires.getEpochSecond(), "iss", appId));
    current = header + "." + claims + "." + sign(header + "." + claims);
    return current;
  }

  private String sign(String content) {
    try {
      Signature rs256 = Signature.getInstance("SHA256withRSA");
      rs256.initSign(key);
      rs256.update(content.getBytes(StandardCharsets.US_ASCII));
      return URL.encodeToString(rs256.sign());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the GitHub App key cannot sign (RS256)", e);
    }
  }

  private static String part(Map<String, Object> json) {
    return URL.encodeToString(Json.mapper().writeValueAsBytes(json));
  }
}

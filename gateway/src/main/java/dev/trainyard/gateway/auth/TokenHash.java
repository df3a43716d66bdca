package dev.trainyard.gateway.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/** Token generation and hashing; only hashes are ever stored or compared. */
public final class TokenHash {
  private static final SecureRandom RANDOM = new SecureRandom();

  private TokenHash() {}

  public static String sha256(String token) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JVM", e);
    }
  }

  /** Compares two hashes in time independent of where they differ. */
  public static boolean sameHash(String a, String b) {
    return MessageDigest.isEqual(
        a.getBytes(StandardCharsets.US_ASCII), b.getBytes(StandardCharsets.US_ASCII));
  }

  /** A new token: {@code ty_} and 32 random bytes, URL-safe. */
  public static String newToken() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return "ty_" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }
}

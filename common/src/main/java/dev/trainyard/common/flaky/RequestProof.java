package dev.trainyard.common.flaky;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The gateway's proof, in {@link FlakyTestsHeaders#PROOF}, that it sent this request for this
 * organization: {@code v1.<epoch millis>.<nonce>.<HMAC-SHA256>} over the organization, the method,
 * the path with its query, the time and a random nonce, under the secret the gateway and the
 * flaky-tests service share. A proof is good for {@link #WINDOW} either side of the verifier's
 * clock, and only once: the service remembers an accepted nonce until {@link
 * Accepted#usableUntil()}. The body is not covered — uploads stream through and are never held
 * whole to be hashed (docs/adr/0012). The leading {@code v1} lets the format change later.
 */
public final class RequestProof {
  /** How far a proof's time may lie from the verifier's clock, either way. */
  public static final Duration WINDOW = Duration.ofMinutes(5);

  private static final String VERSION = "v1";
  private static final Pattern V1 =
      Pattern.compile("v1\\.([0-9]{1,15})\\.([A-Za-z0-9_-]{22})\\.([A-Za-z0-9_-]{43})");
  private static final int NONCE_BYTES = 16;
  private static final Base64.Encoder BASE64 = Base64.getUrlEncoder().withoutPadding();
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final String THROUGH_THE_GATEWAY =
      ": call the flaky-tests API through the gateway";

  private final SecretKeySpec key;
  private final InstantSource clock;

  public RequestProof(String key, InstantSource clock) {
    this.key = new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256");
    this.clock = clock;
  }

  /** What a proof speaks for: the organization, the HTTP method and the path with its query. */
  public record Request(String org, String method, String target) {}

  /** The outcome of {@link #verify}. */
  public sealed interface Verdict permits Accepted, Rejected {}

  /** A genuine, fresh proof; it is spent once {@code nonce} is recorded until the time given. */
  public record Accepted(String nonce, Instant usableUntil) implements Verdict {}

  /** No proof, or not one for this request now; {@code reason} is the 401's sentence. */
  public record Rejected(String reason) implements Verdict {}

  /** A fresh proof for {@code request}: the header value the gateway sends with it. */
  public String sign(Request request) {
    byte[] nonce = new byte[NONCE_BYTES];
    RANDOM.nextBytes(nonce);
    String at = Long.toString(clock.instant().toEpochMilli());
    String encodedNonce = BASE64.encodeToString(nonce);
    return String.join(".", VERSION, at, encodedNonce, mac(request, at, encodedNonce));
  }

  /**
   * Whether {@code proof} is the gateway's for {@code request} and within {@link #WINDOW} of now.
   * Whether its nonce was used before is for the caller to check (the record is shared by every
   * replica of the service, so it lives in its store).
   */
  public Verdict verify(Request request, String proof) {
    if (proof == null || request.org() == null) {
      return rejected("the request carries no gateway proof of its organization");
    }
    Matcher parts = V1.matcher(proof);
    if (!parts.matches()) {
      return rejected("the gateway proof is not a " + VERSION + " proof");
    }
    String at = parts.group(1);
    String nonce = parts.group(2);
    // compared in constant time, so the answer time tells nothing about the expected signature
    if (!MessageDigest.isEqual(
        mac(request, at, nonce).getBytes(StandardCharsets.US_ASCII),
        parts.group(3).getBytes(StandardCharsets.US_ASCII))) {
      return rejected("the gateway proof does not match this request");
    }
    Instant signed = Instant.ofEpochMilli(Long.parseLong(at));
    Instant now = clock.instant();
    if (now.isBefore(signed.minus(WINDOW)) || now.isAfter(signed.plus(WINDOW))) {
      return rejected(
          "the gateway proof was made at "
              + signed
              + ", more than "
              + WINDOW.toMinutes()
              + " minutes from this service's clock ("
              + now
              + ")");
    }
    return new Accepted(nonce, signed.plus(WINDOW));
  }

  /** The 401 of a nonce seen before. */
  public static Rejected replayed() {
    return rejected("the gateway proof was used before");
  }

  private static Rejected rejected(String what) {
    return new Rejected(what + THROUGH_THE_GATEWAY);
  }

  /**
   * Every part length-prefixed, so no two different requests share a signed message however their
   * parts are split.
   */
  private String mac(Request request, String at, String nonce) {
    StringBuilder message = new StringBuilder("trainyard-gateway-proof/").append(VERSION);
    for (String part : List.of(request.org(), request.method(), request.target(), at, nonce)) {
      message.append('\n').append(part.length()).append(':').append(part);
    }
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(key);
      return BASE64.encodeToString(
          mac.doFinal(message.toString().getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JVM", e);
    }
  }
}

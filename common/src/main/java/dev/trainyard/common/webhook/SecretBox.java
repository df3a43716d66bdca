package dev.trainyard.common.webhook;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Encrypts secrets at rest (endpoint signing secrets, git credentials) with AES-256-GCM under keys
 * derived from the service key ({@code TRAINYARD_WEBHOOK_KEY}, 32 bytes in base64). The services
 * must use the secret itself (to sign, to log in), so it is stored encrypted, not hashed; the key
 * never enters the database.
 *
 * <p>Each value is sealed for its {@link Place}: the key is derived (HKDF-SHA256) for the place's
 * collection and field, so no two kinds of secret share a key, and the collection, document id and
 * field are the cipher's associated data, so a sealed value copied into another record (another
 * organization's remote, another endpoint) does not open there. A sealed value reads {@code v2.<key
 * id>.<base64 nonce and ciphertext>}: the key id names the service key it was sealed with, so a
 * value of another key is refused by name. Values sealed before (no prefix: the service key itself,
 * no associated data) still open.
 *
 * <p>Rotation: the previous keys ({@code TRAINYARD_WEBHOOK_PREVIOUS_KEYS}) still open what they
 * sealed, while everything new is sealed with the current key; re-sealing every stored value
 * ({@code /admin/v1/resealSecrets}) then lets the previous keys go.
 */
public final class SecretBox {
  private static final String VERSION = "v2";
  private static final int IV_BYTES = 12;
  private static final int TAG_BITS = 128;
  private static final SecureRandom RANDOM = new SecureRandom();
  private final byte[] master;
  private final String keyId;

  /** Every key this box opens with, by id: the current one and the previous ones. */
  private final Map<String, byte[]> keys = new LinkedHashMap<>();

  /**
   * Where a sealed value is kept, which it is bound to.
   *
   * @param collection the store collection ({@code webhook_endpoints}, {@code git_remotes})
   * @param id the document's id
   * @param field the field holding the value
   */
  public record Place(String collection, String id, String field) {
    byte[] associatedData() {
      return (collection + "\u0000" + id + "\u0000" + field).getBytes(StandardCharsets.UTF_8);
    }
  }

  public SecretBox(String base64Key) {
    this(base64Key, List.of());
  }

  /**
   * @param base64Key the current key, which seals
   * @param previous keys that only open what they sealed, during a rotation
   */
  public SecretBox(String base64Key, List<String> previous) {
    this.master = raw(base64Key);
    this.keyId = idOf(master);
    keys.put(keyId, master);
    for (String key : previous) {
      byte[] old = raw(key);
      keys.putIfAbsent(idOf(old), old);
    }
  }

  /**
   * The previous keys of {@code TRAINYARD_WEBHOOK_PREVIOUS_KEYS}: comma-separated, may be empty.
   */
  public static List<String> previousKeys(String commaSeparated) {
    if (commaSeparated == null) {
      return List.of();
    }
    return Arrays.stream(commaSeparated.split(","))
        .map(String::strip)
        .filter(k -> !k.isEmpty())
        .toList();
  }

  private static byte[] raw(String base64Key) {
    byte[] raw;
    try {
      raw = Base64.getDecoder().decode(base64Key.strip());
    } catch (IllegalArgumentException e) {
      raw = new byte[0];
    }
    if (raw.length != 32) {
      throw new IllegalArgumentException("the webhook key must be 32 bytes in base64");
    }
    return raw;
  }

  private static String idOf(byte[] key) {
    return HexFormat.of().formatHex(derive(key, "trainyard key id"), 0, 4);
  }

  /** Whether {@code sealed} is sealed with the current key the current way (nothing to re-seal). */
  public boolean isCurrent(String sealed) {
    return sealed.startsWith(VERSION + "." + keyId + ".");
  }

  /** A fresh random key in the form {@code trainyard.webhook.key} expects. */
  public static String newKey() {
    byte[] raw = new byte[32];
    RANDOM.nextBytes(raw);
    return Base64.getEncoder().encodeToString(raw);
  }

  /** A new endpoint secret: {@code whsec_} and 32 random bytes in base64 (Standard Webhooks). */
  public static String newSecret() {
    byte[] raw = new byte[32];
    RANDOM.nextBytes(raw);
    return "whsec_" + Base64.getEncoder().encodeToString(raw);
  }

  /** The id of this box's service key, as sealed values name it: 8 hex digits. */
  public String keyId() {
    return keyId;
  }

  /** {@code plaintext} sealed for {@code place}. */
  public String seal(String plaintext, Place place) {
    try {
      byte[] iv = new byte[IV_BYTES];
      RANDOM.nextBytes(iv);
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.ENCRYPT_MODE, keyFor(master, place), new GCMParameterSpec(TAG_BITS, iv));
      cipher.updateAAD(place.associatedData());
      byte[] sealed = cipher.doFinal(plaintext.getBytes(StandardCharsets.UTF_8));
      byte[] out = ByteBuffer.allocate(IV_BYTES + sealed.length).put(iv).put(sealed).array();
      return VERSION + "." + keyId + "." + Base64.getEncoder().encodeToString(out);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot encrypt a secret", e);
    }
  }

  /**
   * The value {@code sealed} holds, if it was sealed for {@code place} with this box's key.
   *
   * @throws IllegalStateException when it was sealed with another key, for another place, or was
   *     changed
   */
  public String open(String sealed, Place place) {
    if (!sealed.startsWith(VERSION + ".")) {
      return openUnbound(sealed);
    }
    String[] parts = sealed.split("\\.", 3);
    byte[] key = parts.length == 3 ? keys.get(parts[1]) : null;
    if (key == null) {
      throw new IllegalStateException(
          "a secret in "
              + place.collection()
              + " was sealed with the key "
              + (parts.length == 3 ? parts[1] : "(unreadable)")
              + ", and this service has the keys "
              + String.join(", ", keys.keySet())
              + " (TRAINYARD_WEBHOOK_KEY or TRAINYARD_WEBHOOK_PREVIOUS_KEYS differ between the"
              + " services?)");
    }
    try {
      byte[] in = Base64.getDecoder().decode(parts[2]);
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(
          Cipher.DECRYPT_MODE, keyFor(key, place), new GCMParameterSpec(TAG_BITS, in, 0, IV_BYTES));
      cipher.updateAAD(place.associatedData());
      return new String(cipher.doFinal(in, IV_BYTES, in.length - IV_BYTES), StandardCharsets.UTF_8);
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw new IllegalStateException(
          "a secret in "
              + place.collection()
              + " does not open for "
              + place.id()
              + "/"
              + place.field()
              + ": it was sealed for another record or changed",
          e);
    }
  }

  /**
   * A value sealed before places and derived keys: a service key itself, no associated data; each
   * key is tried, the current one first.
   */
  private String openUnbound(String sealed) {
    GeneralSecurityException last = null;
    for (byte[] key : keys.values()) {
      try {
        byte[] in = Base64.getDecoder().decode(sealed);
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(
            Cipher.DECRYPT_MODE,
            new SecretKeySpec(key, "AES"),
            new GCMParameterSpec(TAG_BITS, in, 0, IV_BYTES));
        return new String(
            cipher.doFinal(in, IV_BYTES, in.length - IV_BYTES), StandardCharsets.UTF_8);
      } catch (GeneralSecurityException e) {
        last = e;
      } catch (IllegalArgumentException e) {
        break;
      }
    }
    throw new IllegalStateException("cannot decrypt a secret (wrong key?)", last);
  }

  private static SecretKeySpec keyFor(byte[] key, Place place) {
    return new SecretKeySpec(
        derive(key, "trainyard secrets at rest: " + place.collection() + "/" + place.field()),
        "AES");
  }

  /** HKDF-SHA256 (RFC 5869) of {@code ikm} with no salt: 32 bytes for {@code info}. */
  static byte[] derive(byte[] ikm, String info) {
    try {
      Mac extract = Mac.getInstance("HmacSHA256");
      extract.init(new SecretKeySpec(new byte[32], "HmacSHA256"));
      byte[] prk = extract.doFinal(ikm);
      Mac expand = Mac.getInstance("HmacSHA256");
      expand.init(new SecretKeySpec(prk, "HmacSHA256"));
      expand.update(info.getBytes(StandardCharsets.UTF_8));
      expand.update((byte) 1);
      return expand.doFinal();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HMAC-SHA256 is part of every JVM", e);
    }
  }
}

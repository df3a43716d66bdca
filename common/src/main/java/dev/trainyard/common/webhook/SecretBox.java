package dev.trainyard.common.webhook;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Encrypts endpoint secrets at rest with AES-256-GCM under the service key ({@code
 * trainyard.webhook.key}, 32 bytes in base64). The dispatcher must sign with the secret itself, so
 * it is stored encrypted, not hashed; the key never enters the database.
 */
public final class SecretBox {
  private static final int IV_BYTES = 12;
  private static final int TAG_BITS = 128;
  private static final SecureRandom RANDOM = new SecureRandom();
  private final SecretKeySpec key;

  public SecretBox(String base64Key) {
    byte[] raw = Base64.getDecoder().decode(base64Key);
    if (raw.length != 32) {
      throw new IllegalArgumentException("the webhook key must be 32 bytes in base64");
    }
    this.key = new SecretKeySpec(raw, "AES");
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

  public String seal(String plaintext) {
    try {
      byte[] iv = new byte[IV_BYTES];
      RANDOM.nextBytes(iv);
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, iv));
      byte[] sealed = cipher.doFinal(plaintext.getBytes(StandardCharsets.UTF_8));
      byte[] out = new byte[IV_BYTES + sealed.length];
      System.arraycopy(iv, 0, out, 0, IV_BYTES);
      System.arraycopy(sealed, 0, out, IV_BYTES, sealed.length);
      return Base64.getEncoder().encodeToString(out);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot encrypt a webhook secret", e);
    }
  }

  public String open(String sealed) {
    try {
      byte[] in = Base64.getDecoder().decode(sealed);
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, in, 0, IV_BYTES));
      return new String(cipher.doFinal(in, IV_BYTES, in.length - IV_BYTES), StandardCharsets.UTF_8);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot decrypt a webhook secret (wrong key?)", e);
    }
  }
}

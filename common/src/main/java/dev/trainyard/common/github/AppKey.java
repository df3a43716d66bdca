package dev.trainyard.common.github;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a GitHub App's private key as GitHub hands it out: PKCS#1 PEM ({@code BEGIN RSA PRIVATE
 * KEY}); PKCS#8 ({@code BEGIN PRIVATE KEY}, what {@code openssl pkcs8 -topk8} makes of it) is taken
 * too. The JDK reads only PKCS#8, so a PKCS#1 key is wrapped in the PKCS#8 envelope of an RSA key.
 */
final class AppKey {
  private static final Pattern PEM =
      Pattern.compile(
          "-----BEGIN (RSA )?PRIVATE KEY-----([A-Za-z0-9+/=\\s]+)-----END (RSA )?PRIVATE KEY-----");

  /** {@code AlgorithmIdentifier} of rsaEncryption (1.2.840.113549.1.1.1) with NULL parameters. */
  private static final byte[] RSA_ALGORITHM = {
    0x30,
    0x0d,
    0x06,
    0x09,
    0x2a,
    (byte) 0x86,
    0x48,
    (byte) 0x86,
    (byte) 0xf7,
    0x0d,
    0x01,
    0x01,
    0x01,
    0x05,
    0x00
  };

  private AppKey() {}

  /**
   * @throws IOException with one sentence when {@code pem} holds no unencrypted RSA private key
   */
  static PrivateKey read(String pem) throws IOException {
    Matcher matcher = PEM.matcher(pem == null ? "" : pem);
    if (!matcher.find()) {
      throw new IOException(
          "the GitHub App's private key is not a PEM private key (BEGIN RSA PRIVATE KEY)");
    }
    try {
      byte[] der = Base64.getMimeDecoder().decode(matcher.group(2).replaceAll("\\s", ""));
      byte[] pkcs8 = matcher.group(1) != null ? wrap(der) : der;
      return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw new IOException("the GitHub App's private key cannot be read: " + e.getMessage(), e);
    }
  }

  /** PKCS#8 {@code PrivateKeyInfo}: SEQUENCE { INTEGER 0, rsaEncryption, OCTET STRING pkcs1 }. */
  private static byte[] wrap(byte[] pkcs1) {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    body.writeBytes(new byte[] {0x02, 0x01, 0x00});
    body.writeBytes(RSA_ALGORITHM);
    body.writeBytes(tagged(0x04, pkcs1));
    return tagged(0x30, body.toByteArray());
  }

  /** A DER element: its tag, its definite length, its content. */
  private static byte[] tagged(int tag, byte[] content) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(tag);
    int length = content.length;
    if (length < 0x80) {
      out.write(length);
    } else {
      int bytes = (Integer.SIZE - Integer.numberOfLeadingZeros(length) + 7) / 8;
      out.write(0x80 | bytes);
      for (int i = bytes - 1; i >= 0; i--) {
        out.write(length >>> (8 * i));
      }
    }
    out.writeBytes(content);
    return out.toByteArray();
  }
}

package dev.trainyard.worker.scm;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.util.ArrayList;
import java.util.List;
import org.apache.sshd.common.NamedResource;
import org.apache.sshd.common.util.security.SecurityUtils;

/**
 * Reads private keys as source hosts hand them out: OpenSSH, PKCS#8 and PKCS#1 PEM (a GitHub App's
 * key is PKCS#1 {@code BEGIN RSA PRIVATE KEY}), unencrypted.
 */
public final class PrivateKeys {
  private PrivateKeys() {}

  /**
   * The key pairs in {@code pem}.
   *
   * @param whose names the key in the error ("the remote's private key")
   * @throws IOException with one sentence naming {@code whose} when it cannot be read
   */
  public static List<KeyPair> read(String pem, String whose) throws IOException {
    List<KeyPair> keys = new ArrayList<>();
    try {
      SecurityUtils.loadKeyPairIdentities(
              null,
              NamedResource.ofName(whose),
              new ByteArrayInputStream(pem.getBytes(StandardCharsets.UTF_8)),
              null)
          .forEach(keys::add);
    } catch (GeneralSecurityException | RuntimeException e) {
      throw new IOException(whose + " cannot be read: " + e.getMessage());
    }
    if (keys.isEmpty()) {
      throw new IOException(whose + " holds no private key");
    }
    return keys;
  }
}

package dev.trainyard.gateway.scm;

import dev.trainyard.gateway.http.ApiException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Set;

/**
 * An SSH host key as {@code setRemote} takes it to pin: OpenSSH {@code known_hosts} form, {@code
 * <type> <base64>} with an optional comment, or a whole {@code known_hosts} line with the host
 * names in front (as {@code ssh-keyscan} prints it). Kept as {@code <type> <base64>}.
 */
final class SshHostKey {
  private static final int MAX_LENGTH = 16 * 1024;
  private static final Set<String> TYPES =
      Set.of(
          "ssh-ed25519",
          "ssh-rsa",
          "ecdsa-sha2-nistp256",
          "ecdsa-sha2-nistp384",
          "ecdsa-sha2-nistp521",
          "sk-ssh-ed25519@openssh.com",
          "sk-ecdsa-sha2-nistp256@openssh.com");

  private SshHostKey() {}

  /**
   * The key in the form it is kept in.
   *
   * @throws ApiException 400 naming {@code hostKey} when it is not one public host key
   */
  static String normalized(String given) {
    if (given.length() > MAX_LENGTH) {
      throw ApiException.badRequest("hostKey must be at most " + MAX_LENGTH + " characters");
    }
    String[] parts = given.strip().split("\\s+");
    int at = parts.length > 2 && !TYPES.contains(parts[0]) ? 1 : 0;
    if (parts.length < at + 2 || !TYPES.contains(parts[at])) {
      throw ApiException.badRequest(
          "hostKey must be an SSH public host key in known_hosts form (\"ssh-ed25519 AAAA...\"),"
              + " of type "
              + String.join(", ", TYPES.stream().sorted().toList()));
    }
    String type = parts[at];
    if (!type.equals(typeInside(parts[at + 1]))) {
      throw ApiException.badRequest(
          "hostKey's key data is not base64 of an " + type + " key (as ssh-keyscan prints it)");
    }
    return type + " " + parts[at + 1];
  }

  /** The key type the SSH wire encoding of a public key names first, or null. */
  private static String typeInside(String base64) {
    try {
      ByteBuffer blob = ByteBuffer.wrap(Base64.getDecoder().decode(base64));
      int length = blob.getInt();
      if (length <= 0 || length > blob.remaining() || length > 64) {
        return null;
      }
      byte[] name = new byte[length];
      blob.get(name);
      return blob.hasRemaining() ? new String(name, StandardCharsets.US_ASCII) : null;
    } catch (IllegalArgumentException | java.nio.BufferUnderflowException e) {
      return null;
    }
  }
}

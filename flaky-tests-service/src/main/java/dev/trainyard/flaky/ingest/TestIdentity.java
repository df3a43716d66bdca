package dev.trainyard.flaky.ingest;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.UUID;

/**
 * The stable id of a test case (API.md §5): a version 5 UUID (RFC 9562, SHA-1, name-based) of repo,
 * file path, classname, parent, name and variant, so re-uploads keep the id. Each part is written
 * with its length, so no two different tuples share a name.
 */
public final class TestIdentity {
  /** The namespace of test-case ids: the v5 UUID of "trainyard.dev/test-case" in the URL space. */
  static final UUID NAMESPACE =
      v5(UUID.fromString("6ba7b811-9dad-11d1-80b4-00c04fd430c8"), "trainyard.dev/test-case");

  private TestIdentity() {}

  public static UUID of(
      String host,
      String owner,
      String repoName,
      String filePath,
      String classname,
      String parent,
      String name,
      String variant) {
    StringBuilder key = new StringBuilder();
    for (String part :
        new String[] {host, owner, repoName, filePath, classname, parent, name, variant}) {
      String value = part == null ? "" : part;
      key.append(value.length()).append(':').append(value).append(';');
    }
    return v5(NAMESPACE, key.toString());
  }

  /** RFC 9562 §5.5: SHA-1 of namespace and name, version and variant bits set. */
  static UUID v5(UUID namespace, String name) {
    try {
      MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
      ByteBuffer ns = ByteBuffer.allocate(16);
      ns.putLong(namespace.getMostSignificantBits()).putLong(namespace.getLeastSignificantBits());
      sha1.update(ns.array());
      byte[] hash = sha1.digest(name.getBytes(StandardCharsets.UTF_8));
      hash[6] = (byte) ((hash[6] & 0x0f) | 0x50);
      hash[8] = (byte) ((hash[8] & 0x3f) | 0x80);
      ByteBuffer bytes = ByteBuffer.wrap(hash, 0, 16);
      return new UUID(bytes.getLong(), bytes.getLong());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-1 is part of every JDK", e);
    }
  }
}

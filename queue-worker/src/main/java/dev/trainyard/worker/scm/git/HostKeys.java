package dev.trainyard.worker.scm.git;

/**
 * The SSH host key one remote registration is known by, in OpenSSH {@code known_hosts} form ({@code
 * <type> <base64>}): pinned with {@code setRemote}, or else the first one a worker accepted, kept
 * with the registration in the store so every worker, restarted or not, trusts the same key.
 */
interface HostKeys {
  /** For a registration without a store: nothing is trusted. */
  HostKeys NONE = seen -> null;

  /**
   * The key the registration is known by: the one known already, or {@code seen} when none was and
   * it is now recorded; null when none can be recorded (the connection is refused).
   */
  String accepted(String seen);

  /** Whether two keys in {@code known_hosts} form are the same key (the comment aside). */
  static boolean same(String known, String seen) {
    return known != null && keyOf(known).equals(keyOf(seen));
  }

  private static String keyOf(String entry) {
    String[] parts = entry.strip().split("\\s+");
    return parts.length < 2 ? entry.strip() : parts[0] + " " + parts[1];
  }
}

package dev.trainyard.common.command;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Collection;

/**
 * A summary of a PR's impacted targets: either every target ({@code all}), or {@code count} targets
 * whose sorted list is stored outside the queue aggregate under {@code digest} (SHA-256), with an
 * overlap {@code signature}: a 2,048-bit Bloom filter of the targets, so the engine can tell which
 * PRs may share a target without the lists. It can only err towards overlap (a PR then waits for a
 * PR it did not need to), never the other way; a summary without a signature overlaps everything.
 */
public record ImpactedTargets(boolean all, long count, String digest, String signature) {
  private static final int BITS = 2048;

  public ImpactedTargets(boolean all, long count, String digest) {
    this(all, count, digest, null);
  }

  public static ImpactedTargets everything() {
    return new ImpactedTargets(true, 0, null, null);
  }

  /** The summary of these targets (stored under {@code digest}). */
  public static ImpactedTargets of(Collection<String> targets, String digest) {
    byte[] bloom = new byte[BITS / 8];
    for (String target : targets) {
      long hash = fnv1a(target);
      set(bloom, (int) (hash & (BITS - 1)));
      set(bloom, (int) ((hash >>> 32) & (BITS - 1)));
    }
    return new ImpactedTargets(
        false, targets.size(), digest, Base64.getEncoder().encodeToString(bloom));
  }

  /** Whether the two PRs may impact a common target. */
  public boolean overlaps(ImpactedTargets other) {
    if (all || other.all || signature == null || other.signature == null) {
      return true;
    }
    byte[] mine = Base64.getDecoder().decode(signature);
    byte[] theirs = Base64.getDecoder().decode(other.signature);
    for (int i = 0; i < Math.min(mine.length, theirs.length); i++) {
      if ((mine[i] & theirs[i]) != 0) {
        return true;
      }
    }
    return false;
  }

  private static void set(byte[] bloom, int bit) {
    bloom[bit / 8] |= (byte) (1 << (bit % 8));
  }

  /** FNV-1a over the UTF-8 bytes: the same on every JVM, unlike a seeded hash. */
  private static long fnv1a(String s) {
    long hash = 0xcbf29ce484222325L;
    for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
      hash ^= b & 0xff;
      hash *= 0x100000001b3L;
    }
    return hash;
  }
}

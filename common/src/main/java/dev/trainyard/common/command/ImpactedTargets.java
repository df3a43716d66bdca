package dev.trainyard.common.command;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * A summary of a PR's impacted targets: either every target ({@code all}), or {@code count} targets
 * whose sorted list is stored outside the queue aggregate under {@code digest} (SHA-256), with an
 * overlap {@code signature}: a 2,048-bit Bloom filter of the targets (32 words), so the engine can
 * tell which PRs may share a target without the lists. It can only err towards overlap (a PR then
 * waits for a PR it did not need to), never the other way; a summary without a signature overlaps
 * everything.
 */
public record ImpactedTargets(boolean all, long count, String digest, List<Long> signature) {
  private static final int BITS = 2048;

  public ImpactedTargets {
    signature = signature == null ? null : List.copyOf(signature);
  }

  public ImpactedTargets(boolean all, long count, String digest) {
    this(all, count, digest, null);
  }

  public static ImpactedTargets everything() {
    return new ImpactedTargets(true, 0, null, null);
  }

  /** The summary of these targets (stored under {@code digest}). */
  public static ImpactedTargets of(Collection<String> targets, String digest) {
    long[] bloom = new long[BITS / 64];
    for (String target : targets) {
      long hash = fnv1a(target);
      set(bloom, (int) (hash & (BITS - 1)));
      set(bloom, (int) ((hash >>> 32) & (BITS - 1)));
    }
    return new ImpactedTargets(
        false, targets.size(), digest, Arrays.stream(bloom).boxed().toList());
  }

  /** Whether the two PRs may impact a common target. */
  public boolean overlaps(ImpactedTargets other) {
    if (all || other.all || signature == null || other.signature == null) {
      return true;
    }
    for (int i = 0; i < Math.min(signature.size(), other.signature.size()); i++) {
      if ((signature.get(i) & other.signature.get(i)) != 0) {
        return true;
      }
    }
    return false;
  }

  private static void set(long[] bloom, int bit) {
    bloom[bit / 64] |= 1L << (bit % 64);
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

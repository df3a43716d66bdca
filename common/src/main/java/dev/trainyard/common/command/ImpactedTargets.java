package dev.trainyard.common.command;

/**
 * A summary of a PR's impacted targets: either every target ({@code all}), or {@code count} targets
 * whose sorted list is stored outside the queue aggregate under {@code digest} (SHA-256).
 */
public record ImpactedTargets(boolean all, long count, String digest) {
  public static ImpactedTargets everything() {
    return new ImpactedTargets(true, 0, null);
  }
}

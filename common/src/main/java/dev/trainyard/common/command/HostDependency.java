package dev.trainyard.common.command;

/**
 * What the source host says of a PR another PR depends on, when the queue does not know it (not in
 * this queue, and not among the PRs it concluded lately): {@code merged} (by another queue, by
 * hand, or long ago), else {@code open} (on {@code baseBranch}: another queue when that is not this
 * queue's target) or closed without merging. {@code baseBranch} is null where the host does not say
 * (a plain git repository).
 */
public record HostDependency(long number, boolean merged, boolean open, String baseBranch) {}

package dev.trainyard.worker.engine;

import dev.trainyard.common.command.ImpactedTargets;

/**
 * Impacted targets uploaded for a PR that is not in the queue yet; applied when it is submitted.
 */
public record PendingTargets(long prNumber, String sha, ImpactedTargets targets) {}

package dev.trainyard.common.view;

import dev.trainyard.common.queue.Mergeability;

/**
 * Why a PR is or is not ready to test (API.md §2 {@code readiness}); {@code notReadyReason} is one
 * sentence while the PR is {@code not_ready}, else null.
 */
public record Readiness(
    boolean hasImpactedTargets,
    boolean requiresImpactedTargets,
    boolean doesBaseBranchMatch,
    Mergeability gitHubMergeability,
    String notReadyReason) {}

package dev.trainyard.worker.engine;

/**
 * A status reported for a commit that is not (yet) the head of a test run: a fast CI may report
 * before the worker has recorded the branch it built. Claimed by the run whose head it is.
 */
public record UnclaimedStatus(String sha, RunStatus status) {}

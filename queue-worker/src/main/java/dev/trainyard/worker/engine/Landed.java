package dev.trainyard.worker.engine;

/**
 * The run that landed last and where it left the target branch: the run behind it merges on top of
 * exactly this commit. {@code runId} is empty when the target was last seen moved by someone else.
 */
public record Landed(String runId, String targetSha) {}

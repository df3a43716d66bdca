package dev.trainyard.worker.engine;

import dev.trainyard.common.command.CommitState;
import java.time.Instant;

/**
 * The newest report of one CI context on a commit; {@code appId} is the GitHub App that reported a
 * check run (null for commit statuses and plain CI).
 */
public record RunStatus(
    String context, CommitState state, String url, String description, Long appId, Instant at) {}

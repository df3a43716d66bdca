package dev.trainyard.worker.engine;

import dev.trainyard.common.command.CommitState;
import java.time.Instant;

/** The newest report of one CI context on a commit. */
public record RunStatus(
    String context, CommitState state, String url, String description, Instant at) {}

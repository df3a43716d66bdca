package dev.trainyard.worker.store;

import java.time.Instant;

/**
 * A command already applied to the queue, and when; a redelivery of it is answered, not applied
 * again. {@code appliedAt} is null in documents written before it was recorded.
 */
public record RecentCommand(String commandId, Instant appliedAt) {}

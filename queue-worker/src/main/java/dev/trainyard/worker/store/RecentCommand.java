package dev.trainyard.worker.store;

/** A command already applied to the queue; a redelivery of it is answered, not applied again. */
public record RecentCommand(String commandId) {}

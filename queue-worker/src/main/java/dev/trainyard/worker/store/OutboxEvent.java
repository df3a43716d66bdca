package dev.trainyard.worker.store;

/** A public event stored with the state change that caused it, published after the write. */
public record OutboxEvent(String id, String type, String body) {}

/**
 * Turns the passing of time into commands: queues whose deadline has come get a {@code Tick} on
 * their own key, so timeouts go through the same ordered path as every other change.
 */
package dev.trainyard.worker.timers;

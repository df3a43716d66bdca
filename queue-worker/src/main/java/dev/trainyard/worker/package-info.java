/**
 * The queue worker: consumes queue commands by partition, runs the pure engine, persists queue
 * aggregates, publishes events and replies.
 */
package dev.trainyard.worker;

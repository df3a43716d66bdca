/**
 * The imperative shell around the engine: takes one command from Kafka, loads the queue, lets the
 * engine decide, stores the result atomically, publishes the outbox and replies. One partition, one
 * thread, in order.
 */
package dev.trainyard.worker.processing;

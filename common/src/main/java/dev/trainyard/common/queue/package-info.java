/**
 * The identity and vocabulary of a merge queue: the queue key (also the Kafka key and aggregate
 * id), repositories, the lower-case wire enums of API.md, priorities and queue settings.
 */
package dev.trainyard.common.queue;

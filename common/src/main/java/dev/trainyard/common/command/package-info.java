/**
 * What crosses Kafka between the gateway and the queue worker: commands (imperative, one per API
 * mutation, signal or tick), their envelope with the ids that make request-reply and de-duplication
 * work, and replies.
 */
package dev.trainyard.common.command;

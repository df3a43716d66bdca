/**
 * What every trainyard service shares: the wire vocabulary of API.md (enums, settings, read-model
 * views), the command and reply records that cross Kafka, topic and collection names, the queue key
 * and the JSON settings. Plain Java and Jackson only: no Spring, Kafka or MongoDB.
 */
package dev.trainyard.common;

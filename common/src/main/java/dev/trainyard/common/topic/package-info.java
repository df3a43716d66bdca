/** Kafka topic names and message headers shared by producers and consumers. */
package dev.trainyard.common.topic;

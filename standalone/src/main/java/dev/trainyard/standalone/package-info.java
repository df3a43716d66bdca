/**
 * The one-JVM distribution: a real Apache Kafka broker (KRaft), the embedded MongoDB-wire document
 * store, then the queue worker and the gateway, configured from the environment of API.md §6.
 */
package dev.trainyard.standalone;

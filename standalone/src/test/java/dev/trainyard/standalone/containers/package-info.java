/**
 * The integration suites again, on real MongoDB 7 and Apache Kafka containers. They run wherever a
 * Docker engine exists and are skipped (reported as such) where none does.
 */
package dev.trainyard.standalone.containers;

/**
 * Telemetry shared by the services: carrying a trace across Kafka ({@link
 * dev.trainyard.common.telemetry.Traces}), the fields every log line of a command carries ({@link
 * dev.trainyard.common.telemetry.LogFields}) and labels whose values are capped ({@link
 * dev.trainyard.common.telemetry.CappedLabel}).
 */
package dev.trainyard.common.telemetry;

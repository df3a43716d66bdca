/** Telemetry end to end: one request's trace across the services, their log lines and scrapes. */
package dev.trainyard.standalone.telemetry;

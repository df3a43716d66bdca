/** Reads {@code trainyard.events} and records one delivery per matching endpoint. */
package dev.trainyard.webhooks.intake;

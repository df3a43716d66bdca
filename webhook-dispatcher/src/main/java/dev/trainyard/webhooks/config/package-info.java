/** Wiring and settings ({@code trainyard.webhook.*}) of the dispatcher. */
package dev.trainyard.webhooks.config;

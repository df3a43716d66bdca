/**
 * Wiring and settings of the dispatcher: {@code trainyard.webhook.*}, and {@code
 * trainyard.outbound.*} for the address guard every connection passes.
 */
package dev.trainyard.webhooks.config;

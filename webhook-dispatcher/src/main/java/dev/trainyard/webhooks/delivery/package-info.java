/**
 * The delivery log and durable retry schedule, the signer, payload limits, and the dispatcher that
 * attempts due deliveries.
 */
package dev.trainyard.webhooks.delivery;

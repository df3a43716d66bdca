/**
 * Webhook subscriptions as the gateway writes them and the dispatcher reads them: endpoints with
 * their encrypted secrets, event-type filters, and the delivery log documents. Which URLs an
 * endpoint may name is outbound policy ({@code dev.trainyard.common.net}).
 */
package dev.trainyard.common.webhook;

/**
 * Webhook subscriptions as the gateway writes them and the dispatcher reads them: endpoints with
 * their encrypted secrets, event-type filters, the URL guard against server-side request forgery,
 * and the delivery log documents.
 */
package dev.trainyard.common.webhook;

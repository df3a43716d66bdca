/**
 * Webhook subscriptions per organization (API.md §6): endpoints with their signing secrets, and the
 * delivery log the dispatcher writes, with redelivery.
 */
package dev.trainyard.gateway.webhooks;

/**
 * Delivers the events of {@code trainyard.events} to the webhook endpoints of their organization:
 * signed (Standard Webhooks), retried on a durable schedule, logged attempt by attempt.
 */
package dev.trainyard.webhooks;

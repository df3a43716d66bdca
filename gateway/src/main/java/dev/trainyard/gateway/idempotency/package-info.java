/**
 * {@code Idempotency-Key} (API.md §1 Retries, the IETF HTTP API draft): a retried request with the
 * same key and body answers as the first did and has no second effect.
 */
package dev.trainyard.gateway.idempotency;

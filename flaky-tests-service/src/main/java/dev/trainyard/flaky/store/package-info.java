/**
 * The service's collections and their indexes. No multi-document transactions: every write is
 * idempotent per upload id, so a retried upload converges to the same documents.
 */
package dev.trainyard.flaky.store;

/**
 * Reaching the server: where it is and the token (flags, environment, an owner-only config file),
 * the HTTP exchange with its retries ({@code Idempotency-Key} on mutations, 429/503 after their
 * {@code Retry-After}), and what an answer that is not a 200 means for the exit code.
 */
package dev.trainyard.cli.http;

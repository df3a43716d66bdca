/**
 * HTTP plumbing of the flaky-tests service: the gateway's single-use proof checked before anything
 * else (its nonces recorded in the store, shared by every replica), strict JSON bodies, the
 * caller's organization from the gateway's header, and plain-text errors with the status codes of
 * API.md §1.
 */
package dev.trainyard.flaky.http;

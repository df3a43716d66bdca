/**
 * {@code /v1/flaky-tests/*}: authenticated here, then forwarded to the flaky-tests service with the
 * caller's organization and a single-use proof of it for that request, the body streamed under its
 * limit (100 MiB for uploads), behind a circuit breaker that turns a service that is down into a
 * fast 503.
 */
package dev.trainyard.gateway.flaky;

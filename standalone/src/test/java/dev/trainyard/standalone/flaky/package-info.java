/**
 * The flaky-tests service end to end through the gateway: uploads (realistic and hostile),
 * classification, listing with page tokens, quarantine and its events, tenancy, limits and the
 * circuit breaker.
 */
package dev.trainyard.standalone.flaky;

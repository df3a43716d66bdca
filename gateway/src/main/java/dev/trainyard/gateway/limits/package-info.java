/**
 * Per-organization request limits (API.md §1): a token bucket per organization kept in MongoDB, so
 * every gateway replica draws on the same budget, and leased to each replica in small slices, so a
 * request costs a store round trip only once a slice is spent.
 */
package dev.trainyard.gateway.limits;

/**
 * The paged listing of unhealthy tests (API.md §5): keyset queries and signed page tokens bound to
 * the query they were issued for.
 */
package dev.trainyard.flaky.listing;

/** The {@code listPullRequests} benchmark: a queue's history at 100,000 concluded PRs. */
package dev.trainyard.bench.listing;

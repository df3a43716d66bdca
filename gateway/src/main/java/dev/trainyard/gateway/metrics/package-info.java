/**
 * getMergeQueueMetrics (API.md §4): per-queue figures read from the worker's read model (queue
 * views, pull-request history rows, test-run documents) and rendered in the Prometheus text
 * exposition format, one set of series per queue and lane ({@code main}, {@code bisection}).
 */
package dev.trainyard.gateway.metrics;

/**
 * GitHub REST requests per merged PR and CI pipelines per test run, on the standalone stack against
 * the GitHub simulator of queue-worker's tests.
 */
package dev.trainyard.bench.github;

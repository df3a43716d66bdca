/**
 * The flaky-tests service on the standalone stack: ingestion throughput of one large upload, and
 * list latency of the first page against a deep page (keyset, so the depth must not matter).
 */
package dev.trainyard.bench.flaky;

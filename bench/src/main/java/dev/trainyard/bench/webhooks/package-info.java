/** Webhook delivery throughput and delay, beside plain POSTs to the same receiver. */
package dev.trainyard.bench.webhooks;

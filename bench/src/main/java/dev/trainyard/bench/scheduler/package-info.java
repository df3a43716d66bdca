/**
 * The scheduler benchmark (SCHEDULING.md "Benchmark"): seeded discrete-event simulations of a queue
 * that drive the real engine with a simulated source host and CI.
 */
package dev.trainyard.bench.scheduler;

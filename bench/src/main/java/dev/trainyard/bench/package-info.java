/**
 * Benchmarks of trainyard, each reported as a ratio against a baseline measured in the same run.
 */
package dev.trainyard.bench;

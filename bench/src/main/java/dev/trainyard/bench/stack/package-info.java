/** The system under benchmark: the standalone jar started as a child process. */
package dev.trainyard.bench.stack;

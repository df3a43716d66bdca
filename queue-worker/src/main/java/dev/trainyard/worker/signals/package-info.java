/**
 * Turns the outside world into commands on the queue's own key, so that everything that changes a
 * queue goes through the same ordered path: time ({@link dev.trainyard.worker.signals.Ticker} sends
 * ticks to queues whose deadline passed) and the source host ({@link
 * dev.trainyard.worker.signals.ScmPoller} reports what it sees of the queued pull requests). Each
 * instance signals only the queues of the partitions it owns.
 */
package dev.trainyard.worker.signals;

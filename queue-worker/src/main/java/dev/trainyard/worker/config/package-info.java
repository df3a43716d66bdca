/** Spring wiring of the worker: properties, topics, the clock, the error handler. */
package dev.trainyard.worker.config;

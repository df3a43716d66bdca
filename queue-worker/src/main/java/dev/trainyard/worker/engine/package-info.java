/**
 * The queue engine: a pure function from (queue state, command, context) to events or a typed
 * rejection, and a pure applier from (state, event) to the next state. No Spring, Kafka, MongoDB,
 * JGit or clock here; the shell around it loads state, stores results and runs effects. An ArchUnit
 * test keeps it that way.
 */
package dev.trainyard.worker.engine;

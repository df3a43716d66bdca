/**
 * Persistence of queues in MongoDB (ARCHITECTURE.md "Persistence"): one aggregate document per
 * queue written whole with an optimistic version check, carrying its read-model view, the ids of
 * recent commands (de-duplication) and an outbox of rows and events still to publish; and the
 * versioned pull-request history.
 */
package dev.trainyard.worker.store;

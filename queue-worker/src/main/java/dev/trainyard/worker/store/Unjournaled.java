package dev.trainyard.worker.store;

import com.mongodb.client.MongoCollection;

/**
 * The writes of a poll that the journaled write right after them makes durable (ADR 0022): the
 * entry documents (the outbox follows), and a history write followed by another one. A journaled
 * write is committed before the next write is sent, and its commit holds every write acknowledged
 * before it. A commit is not a snapshot, though: one started by someone else may hold a later write
 * of the poll without an earlier one. So a write is left unjournaled only where that does no harm:
 * entry documents no queue document names are never read and are cleared; history rows without
 * their heads, or heads without their rows, are written again from the outbox, which is still
 * there. The outbox, the queue document, the last history write and the outbox's delete are
 * journaled.
 */
final class Unjournaled {
  private Unjournaled() {}

  /** The collection with the write concern it has, minus the journal. */
  static <T> MongoCollection<T> of(MongoCollection<T> collection) {
    return collection.withWriteConcern(collection.getWriteConcern().withJournal(false));
  }
}

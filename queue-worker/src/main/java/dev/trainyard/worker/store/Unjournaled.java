package dev.trainyard.worker.store;

import com.mongodb.client.MongoCollection;

/**
 * The writes of a poll that a later write of the same poll makes durable (ADR 0022). A poll's
 * writes go out in order and MongoDB makes them durable in that order: a journaled write makes the
 * unjournaled ones before it durable with it (its journal flush holds them; on a replica set the
 * oplog replicates in order), and the embedded store's commit writes every change made before it.
 * So only the queue document, which a reply promises, and the last history write of a poll ask for
 * the journal; the outbox and the entry documents before them, and what follows them (superseded
 * entries, the published outbox), do not: whatever a crash loses of those is repaired from the
 * outbox or ignored, as after a crash between two writes.
 */
final class Unjournaled {
  private Unjournaled() {}

  /** The collection with the write concern it has, minus the journal. */
  static <T> MongoCollection<T> of(MongoCollection<T> collection) {
    return collection.withWriteConcern(collection.getWriteConcern().withJournal(false));
  }
}

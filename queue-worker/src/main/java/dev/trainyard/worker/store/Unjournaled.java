package dev.trainyard.worker.store;

import com.mongodb.client.MongoCollection;

/**
 * The writes of a poll that a journaled write after them makes durable (ADR 0022, 0051, 0060): the
 * entry documents and the outbox (the queue document that names them follows), the queue document
 * when its heads follow, and a history write followed by another one. A journaled write is
 * committed before the next write is sent, its commit holds every write acknowledged before it, and
 * a crash keeps a prefix of the writes in the order they were acknowledged (MongoDB's journal and a
 * replica set's oplog, among collections on one shard; the embedded store since ADR 0051). So no
 * queue document survives without the documents written before it; entry documents and an outbox no
 * queue document names are never read and are cleared; history rows without their heads are written
 * again from the outbox, which is still there. The last history write before the replies (each
 * version's heads) is journaled, and the queue document is when no such write follows it (ADR
 * 0060). The outbox's delete is not: a crash that takes it back leaves an outbox that the queue's
 * next load publishes again.
 */
final class Unjournaled {
  private Unjournaled() {}

  /** The collection with the write concern it has, minus the journal. */
  static <T> MongoCollection<T> of(MongoCollection<T> collection) {
    return collection.withWriteConcern(collection.getWriteConcern().withJournal(false));
  }
}

package dev.trainyard.worker.engine;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.RandomAccess;

/**
 * A queue's entries as an immutable list that finds an entry by id or PR number, and sorts them in
 * queue order, once per version of the queue rather than once per question. The planning rules ask
 * for entries by id for every PR of every run on every pass (a lost PR, a held PR, a missing
 * dependency, a verdict), and a command runs several passes: a linear search made that cost grow
 * with runs × PRs × the queue's length, which a deep batched queue feels (bench/README, "Entries
 * found by id"). The indexes are built on first use and never change: the list is immutable.
 */
final class Entries extends AbstractList<Entry> implements RandomAccess {
  private final List<Entry> items;
  // immutable maps and lists published by a racy single check: each thread at worst builds its own
  private Indexes indexes;
  private List<Entry> ordered;

  private Entries(List<Entry> items) {
    this.items = items;
  }

  /** {@code entries} as such a list (itself when it is one already). */
  static List<Entry> of(List<Entry> entries) {
    return entries instanceof Entries e ? e : new Entries(List.copyOf(entries));
  }

  @Override
  public Entry get(int index) {
    return items.get(index);
  }

  @Override
  public int size() {
    return items.size();
  }

  /** The first entry with this id. */
  Optional<Entry> byId(String id) {
    return Optional.ofNullable(indexes().byId().get(id));
  }

  /** The first entry of this PR. */
  Optional<Entry> byNumber(long prNumber) {
    return Optional.ofNullable(indexes().byNumber().get(prNumber));
  }

  private Indexes indexes() {
    Indexes built = indexes;
    if (built == null) {
      Map<String, Entry> ids = new HashMap<>();
      Map<Long, Entry> numbers = new HashMap<>();
      for (Entry e : items) {
        ids.putIfAbsent(e.id(), e);
        numbers.putIfAbsent(e.prNumber(), e);
      }
      built = new Indexes(Map.copyOf(ids), Map.copyOf(numbers));
      indexes = built;
    }
    return built;
  }

  /** The entries in queue order ({@link QueueAggregate#QUEUE_ORDER}). */
  List<Entry> inQueueOrder() {
    List<Entry> sorted = ordered;
    if (sorted == null) {
      List<Entry> copy = new ArrayList<>(items);
      copy.sort(QueueAggregate.QUEUE_ORDER);
      sorted = List.copyOf(copy);
      ordered = sorted;
    }
    return sorted;
  }

  /** The entries by id and by PR number, the first of each. */
  private record Indexes(Map<String, Entry> byId, Map<Long, Entry> byNumber) {}
}

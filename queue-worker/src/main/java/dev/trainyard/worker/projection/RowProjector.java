package dev.trainyard.worker.projection;

import dev.trainyard.common.view.PullRequestRow;
import dev.trainyard.common.view.PullRequestView;
import dev.trainyard.worker.engine.Entry;
import dev.trainyard.worker.engine.QueueAggregate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Finds the pull requests whose visible form changed between two states of a queue and writes a new
 * history row for each, valid from the new queue version on.
 */
public final class RowProjector {
  private RowProjector() {}

  /**
   * {@code before} or {@code after} may be null (queue created or deleted); {@code rowVersions}
   * holds the version of each entry's current row.
   */
  public static List<PullRequestRow> changedRows(
      QueueAggregate before, QueueAggregate after, long version, Map<String, Long> rowVersions) {
    Map<String, PullRequestView> previous = new HashMap<>();
    if (before != null) {
      before.entries().forEach(e -> previous.put(e.id(), Views.pullRequest(before, e)));
    }
    List<PullRequestRow> rows = new ArrayList<>();
    if (after == null) {
      return rows;
    }
    for (Entry e : after.entries()) {
      PullRequestView view = Views.pullRequest(after, e);
      if (!view.equals(previous.remove(e.id()))) {
        rows.add(row(after, e, view, version, rowVersions.get(e.id())));
      }
    }
    for (String concludedId : previous.keySet()) {
      Optional<Entry> concluded = after.concludedEntry(concludedId);
      concluded.ifPresent(
          e ->
              rows.add(
                  row(after, e, Views.pullRequest(after, e), version, rowVersions.get(e.id()))));
    }
    return rows;
  }

  /** The row version of every entry still in {@code after}, once {@code rows} are written. */
  public static Map<String, Long> rowVersions(
      QueueAggregate after, Map<String, Long> previous, List<PullRequestRow> rows) {
    Map<String, Long> next = new HashMap<>();
    if (after != null) {
      for (Entry e : after.entries()) {
        next.put(e.id(), previous.get(e.id()));
      }
      for (Entry e : after.concluded()) {
        next.put(e.id(), previous.get(e.id()));
      }
    }
    rows.forEach(r -> next.put(r.prId(), r.fromVersion()));
    next.values().removeIf(java.util.Objects::isNull);
    return next;
  }

  private static PullRequestRow row(
      QueueAggregate queue, Entry e, PullRequestView view, long version, Long supersedes) {
    return new PullRequestRow(
        PullRequestRow.rowId(e.id(), version),
        queue.key().id(),
        e.id(),
        e.prNumber(),
        e.pr().headBranch(),
        e.state(),
        e.stateChangedAt(),
        e.submittedAt(),
        e.state().isFinal() ? e.stateChangedAt() : null,
        version,
        null,
        supersedes,
        view,
        null);
  }
}

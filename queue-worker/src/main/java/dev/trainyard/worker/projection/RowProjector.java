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

  /** {@code before} or {@code after} may be null (queue created or deleted). */
  public static List<PullRequestRow> changedRows(
      QueueAggregate before, QueueAggregate after, long version) {
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
        rows.add(row(after, e, view, version));
      }
    }
    for (String concludedId : previous.keySet()) {
      Optional<Entry> concluded = after.concludedEntry(concludedId);
      concluded.ifPresent(e -> rows.add(row(after, e, Views.pullRequest(after, e), version)));
    }
    return rows;
  }

  private static PullRequestRow row(
      QueueAggregate queue, Entry e, PullRequestView view, long version) {
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
        view);
  }
}

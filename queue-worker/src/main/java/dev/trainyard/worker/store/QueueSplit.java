package dev.trainyard.worker.store;

import dev.trainyard.common.view.EntryTags;
import dev.trainyard.common.view.PullRequestListItem;
import dev.trainyard.common.view.QueueView;
import dev.trainyard.worker.engine.Entry;
import dev.trainyard.worker.engine.QueueAggregate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How a queue version is split into its queue document and entry documents, and joined again (ADR
 * 0019). A version writes documents only for the entries it changed (their state, their line in
 * getQueue or their history row), so a command costs what it changes, not what the queue holds.
 *
 * @param next the version with the tags of its entry documents
 * @param written the entry documents to write before the queue document
 * @param superseded the ids of entry documents the previous version named and this one does not
 */
public record QueueSplit(StoredQueue next, List<StoredEntry> written, List<String> superseded) {

  /** {@code next} as written after {@code before}: unchanged entries keep their documents. */
  public static QueueSplit of(StoredQueue next, StoredQueue before) {
    Map<String, Entry> oldEntries = new HashMap<>();
    if (before.aggregate() != null) {
      before.aggregate().entries().forEach(e -> oldEntries.put(e.id(), e));
    }
    Map<String, PullRequestListItem> oldItems = items(before.view());
    Map<String, PullRequestListItem> newItems = items(next.view());
    Map<Long, String> tags = new LinkedHashMap<>();
    List<StoredEntry> written = new ArrayList<>();
    List<Entry> entries = next.aggregate() == null ? List.of() : next.aggregate().entries();
    for (Entry e : entries) {
      String oldTag = before.entryTags().bySequence().get(e.sequence());
      PullRequestListItem item = newItems.get(e.id());
      Long row = next.rowVersions().get(e.id());
      boolean unchanged =
          oldTag != null
              && e.equals(oldEntries.get(e.id()))
              && Objects.equals(item, oldItems.get(e.id()))
              && Objects.equals(row, before.rowVersions().get(e.id()));
      String tag = unchanged ? oldTag : EntryTags.newTag();
      tags.put(e.sequence(), tag);
      if (!unchanged) {
        written.add(StoredEntry.of(next.id(), next.version(), tag, e, item, row));
      }
    }
    List<String> superseded = new ArrayList<>();
    before
        .entryTags()
        .bySequence()
        .forEach(
            (sequence, tag) -> {
              if (!tag.equals(tags.get(sequence))) {
                superseded.add(EntryTags.documentId(before.id(), sequence, tag));
              }
            });
    return new QueueSplit(next.withEntryTags(new EntryTags(tags)), written, superseded);
  }

  /**
   * The version a queue document names, joined with its entry documents.
   *
   * @param header as stored (no entries)
   * @param documents the entry documents of the queue, by id (may hold others)
   * @return null when a document it names is missing (a newer version replaced it meanwhile)
   */
  static StoredQueue join(StoredQueue header, Map<String, StoredEntry> documents) {
    if (header.aggregate() == null) {
      return header;
    }
    List<Entry> entries = new ArrayList<>();
    List<StoredEntry> inOrder = new ArrayList<>();
    Map<String, Long> rowVersions = new HashMap<>(header.rowVersions());
    for (Map.Entry<Long, String> tag : header.entryTags().bySequence().entrySet()) {
      StoredEntry doc =
          documents.get(EntryTags.documentId(header.id(), tag.getKey(), tag.getValue()));
      if (doc == null) {
        return null;
      }
      entries.add(doc.entry());
      inOrder.add(doc);
      if (doc.rowVersion() != null) {
        rowVersions.put(doc.entry().id(), doc.rowVersion());
      }
    }
    inOrder.sort(Comparator.comparing(StoredEntry::entry, QueueAggregate.QUEUE_ORDER));
    QueueView view = header.view();
    return new StoredQueue(
        header.id(),
        header.org(),
        header.version(),
        header.aggregate().withStoredEntries(entries),
        new QueueView(
            view.state(),
            view.branch(),
            view.settings(),
            view.freeze(),
            inOrder.stream().map(StoredEntry::item).toList(),
            view.forecast()),
        header.nextDeadline(),
        header.recent(),
        header.outboxId(),
        rowVersions,
        header.activeEntries(),
        header.effectsPending(),
        header.entryTags(),
        header.waitingSince());
  }

  private static Map<String, PullRequestListItem> items(QueueView view) {
    Map<String, PullRequestListItem> items = new HashMap<>();
    if (view != null) {
      view.enqueuedPullRequests().forEach(i -> items.put(i.id(), i));
    }
    return items;
  }
}

package dev.trainyard.worker.store;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.trainyard.common.view.Collections;
import dev.trainyard.common.view.EntryTags;
import dev.trainyard.common.view.PullRequestListItem;
import dev.trainyard.worker.engine.Entry;

/**
 * One written form of a waiting entry ({@link Collections#QUEUE_ENTRIES}, ADR 0019): immutable,
 * written before the queue version that names it by {@code tag}, for that {@code version}; {@code
 * item} is its line in getQueue, {@code rowVersion} the version of its current history row.
 */
public record StoredEntry(
    @JsonProperty("_id") String id,
    String queue,
    long version,
    long sequence,
    Entry entry,
    PullRequestListItem item,
    Long rowVersion) {

  static StoredEntry of(
      String queueId, long version, String tag, Entry entry, PullRequestListItem item, Long row) {
    return new StoredEntry(
        EntryTags.documentId(queueId, entry.sequence(), tag),
        queueId,
        version,
        entry.sequence(),
        entry,
        item,
        row);
  }
}

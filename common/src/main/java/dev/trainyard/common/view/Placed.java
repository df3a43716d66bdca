package dev.trainyard.common.view;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.time.Instant;

/**
 * A PR's view or list item as a read answers it: its stored keys, then {@code queuePosition},
 * {@code estimatedMergeAt}, {@code waitingFor} and {@code waitingReason} (null once concluded, when
 * not in the forecast, or, for the last two, when it does not wait for a run). Written in one pass,
 * where building a JSON tree of the item to add the keys cost a second serialization per read.
 */
public record Placed<T>(
    @JsonUnwrapped T item,
    Integer queuePosition,
    Instant estimatedMergeAt,
    WaitingFor waitingFor,
    String waitingReason) {}

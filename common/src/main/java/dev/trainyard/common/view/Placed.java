package dev.trainyard.common.view;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.time.Instant;

/**
 * A PR's view or list item as a read answers it: its stored keys, then {@code queuePosition} and
 * {@code estimatedMergeAt} (null once concluded or when not in the forecast). Written in one pass,
 * where building a JSON tree of the item to add two keys cost a second serialization per read.
 */
public record Placed<T>(@JsonUnwrapped T item, Integer queuePosition, Instant estimatedMergeAt) {}

package dev.trainyard.common.view;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.security.SecureRandom;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which entry document holds each waiting pull request of a queue (ADR 0019): by entry sequence,
 * the tag of the {@link Collections#QUEUE_ENTRIES} document written for its current form. The queue
 * document stores them packed in one string ({@code "sequence:tag sequence:tag …"}, in the
 * aggregate's order), some 14 bytes per PR that the store copies as one value, not as thousands of
 * fields. A tag is drawn afresh for every write, so a document written by an attempt whose queue
 * version lost its race is never the one a queue names.
 */
public record EntryTags(Map<Long, String> bySequence) {
  public static final EntryTags NONE = new EntryTags(Map.of());

  private static final SecureRandom RANDOM = new SecureRandom();
  private static final char[] TAG_CHARS = "0123456789abcdefghijklmnopqrstuvwxyz".toCharArray();
  private static final int TAG_LENGTH = 8;

  public EntryTags {
    bySequence = Collections.unmodifiableMap(new LinkedHashMap<>(bySequence));
  }

  @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
  public static EntryTags parse(String packed) {
    Map<Long, String> tags = new LinkedHashMap<>();
    if (packed != null && !packed.isEmpty()) {
      for (String pair : packed.split(" ")) {
        int colon = pair.indexOf(':');
        tags.put(Long.parseLong(pair.substring(0, colon)), pair.substring(colon + 1));
      }
    }
    return new EntryTags(tags);
  }

  @JsonValue
  public String packed() {
    return bySequence.entrySet().stream()
        .map(t -> t.getKey() + ":" + t.getValue())
        .collect(Collectors.joining(" "));
  }

  /** A tag for a new entry document. */
  public static String newTag() {
    char[] tag = new char[TAG_LENGTH];
    for (int i = 0; i < TAG_LENGTH; i++) {
      tag[i] = TAG_CHARS[RANDOM.nextInt(TAG_CHARS.length)];
    }
    return new String(tag);
  }

  /**
   * The {@code _id} of an entry document; unambiguous although a branch may hold {@code #}, since
   * the sequence and the tag do not.
   */
  public static String documentId(String queueId, long sequence, String tag) {
    return queueId + "#" + sequence + "#" + tag;
  }

  /** The ids of the documents these tags name. */
  public Set<String> documentIds(String queueId) {
    return bySequence.entrySet().stream()
        .map(t -> documentId(queueId, t.getKey(), t.getValue()))
        .collect(Collectors.toSet());
  }
}

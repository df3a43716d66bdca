package dev.trainyard.common.view;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.queue.QueueKey;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The tags of a queue's entry documents survive their packed form in order, and the ids they name
 * never meet another queue's, even where one queue's branch ends in {@code #} and digits.
 */
class EntryTagsTest {

  @Test
  void packedTagsReadBackInTheirOrder() {
    Map<Long, String> bySequence = new LinkedHashMap<>();
    bySequence.put(12L, EntryTags.newTag());
    bySequence.put(3L, EntryTags.newTag());
    bySequence.put(7_000_000_000L, EntryTags.newTag());
    EntryTags tags = new EntryTags(bySequence);

    EntryTags read = EntryTags.parse(tags.packed());

    assertThat(read).isEqualTo(tags);
    assertThat(read.bySequence().keySet()).containsExactly(12L, 3L, 7_000_000_000L);
    assertThat(EntryTags.parse("")).isEqualTo(EntryTags.NONE);
    assertThat(EntryTags.parse(null)).isEqualTo(EntryTags.NONE);
  }

  @Test
  void documentIdsOfQueuesWhoseBranchesLookAlikeNeverMeet() {
    String plain = QueueKey.of("org", "github.com", "acme", "rocket", "main").id();
    String hashed = QueueKey.of("org", "github.com", "acme", "rocket", "main#1").id();
    Set<String> ids = new HashSet<>();
    int named = 0;
    for (long sequence = 1; sequence <= 20; sequence++) {
      for (String tag : new String[] {"1", "a", EntryTags.newTag()}) {
        ids.add(EntryTags.documentId(plain, sequence, tag));
        ids.add(EntryTags.documentId(hashed, sequence, tag));
        named += 2;
      }
    }

    assertThat(ids).hasSize(named);
  }

  @Test
  void newTagsAreEightCharactersWithoutSeparators() {
    Set<String> drawn = new HashSet<>();
    for (int i = 0; i < 1_000; i++) {
      String tag = EntryTags.newTag();
      assertThat(tag).matches("[0-9a-z]{8}");
      drawn.add(tag);
    }
    assertThat(drawn).hasSize(1_000);
  }
}

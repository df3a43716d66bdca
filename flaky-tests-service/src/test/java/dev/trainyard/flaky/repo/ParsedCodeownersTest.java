package dev.trainyard.flaky.repo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.flaky.owners.Codeowners;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The cache of parsed CODEOWNERS: parsed once per (repository, text), bounded by size. */
class ParsedCodeownersTest {
  private final List<String> parsedTexts = new ArrayList<>();
  private final ParsedCodeowners cache =
      new ParsedCodeowners(
          text -> {
            parsedTexts.add(text);
            return Codeowners.parse(text);
          });

  @Test
  void theSameTextOfTheSameRepositoryIsParsedOnce() {
    Codeowners first = cache.get("acme/github.com/acme/rocket", "* @a");
    Codeowners again = cache.get("acme/github.com/acme/rocket", "* @a");
    cache.get("acme/github.com/acme/other", "* @a");

    assertThat(again).isSameAs(first);
    assertThat(parsedTexts).hasSize(2); // keyed by repository too, never by the text alone
  }

  @Test
  void theTextsItHoldsNeverExceedTheBoundTheOldestGoFirst() {
    String big = "* @a\n" + "#".repeat(4 * 1024 * 1024); // 4 Mi characters each
    int fits = (int) (ParsedCodeowners.MAX_CHARS / big.length());
    for (int i = 0; i < fits + 3; i++) {
      cache.get("acme/repo" + i, big);
    }

    assertThat(cache.chars()).isLessThanOrEqualTo(ParsedCodeowners.MAX_CHARS);
    assertThat(cache.size()).isEqualTo(fits);
    cache.get("acme/repo0", big);
    assertThat(parsedTexts).hasSize(fits + 4); // repo0 aged out and was parsed again
  }

  @Test
  void atMostMaxEntriesSmallFiles() {
    for (int i = 0; i < ParsedCodeowners.MAX_ENTRIES + 50; i++) {
      cache.get("acme/repo" + i, "* @a");
    }

    assertThat(cache.size()).isEqualTo(ParsedCodeowners.MAX_ENTRIES);
  }
}

package dev.trainyard.common.github;

import dev.trainyard.common.github.GithubClient.Answer;
import java.util.function.Function;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * A list GitHub answers as a JSON array one page at a time ({@code per_page}, 30 by default): read
 * to its end, 100 items a page, at most {@link #MAX_PAGES} pages. A rule, a check or a status on
 * page 2 counts like one on page 1.
 */
public final class ListPages {
  /** The most pages read: 1,000 items. */
  public static final int MAX_PAGES = 10;

  private static final int PER_PAGE = 100;

  private ListPages() {}

  /**
   * Every item of the list at {@code path}, as one 200 answer; or the first answer that was not a
   * 200, for the caller to read as it reads a refusal of the list.
   *
   * @param get a GET of a path, as the caller makes it (its installation, its budget)
   */
  public static Answer all(Function<String, Answer> get, String path) {
    ArrayNode items = JsonNodeFactory.instance.arrayNode();
    String next = path.contains("?") ? "&" : "?";
    for (int page = 1; page <= MAX_PAGES; page++) {
      Answer answer = get.apply(path + next + "per_page=" + PER_PAGE + "&page=" + page);
      if (answer.status() != 200) {
        return answer;
      }
      answer.body().forEach(items::add);
      if (answer.body().size() < PER_PAGE) {
        break;
      }
    }
    return new Answer(200, items);
  }
}

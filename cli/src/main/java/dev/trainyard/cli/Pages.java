package dev.trainyard.cli;

import dev.trainyard.cli.http.Refused;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * Follows a listing's pages up to a limit. Every page is asked for with the same size (the flaky
 * listing's page tokens are bound to it), the rows past the limit are dropped here, and a page that
 * adds nothing or names the page just read ends the walk, so a misbehaving server or proxy cannot
 * keep it going.
 */
final class Pages {
  static final int LARGEST_LIMIT = 10_000;
  private static final int LARGEST_PAGE = 100;

  /** One page: its rows and the token of the next, null or empty on the last. */
  record Page(JsonNode rows, String next) {}

  private Pages() {}

  /** The size every page is asked for. */
  static int size(int limit) {
    if (limit < 1 || limit > LARGEST_LIMIT) {
      throw Refused.usage("--limit must be between 1 and " + LARGEST_LIMIT);
    }
    return Math.min(LARGEST_PAGE, limit);
  }

  /** The rows of the pages {@code fetch} reads from a token (null for the first), at most limit. */
  static ArrayNode gather(int limit, Function<String, Page> fetch) {
    ArrayNode rows = JsonNodeFactory.instance.arrayNode();
    String token = null;
    while (true) {
      Page page = fetch.apply(token);
      int before = rows.size();
      for (JsonNode row : page.rows()) {
        if (rows.size() < limit) {
          rows.add(row);
        }
      }
      String next = page.next();
      boolean last = next == null || next.isEmpty() || next.equals(token);
      if (last || rows.size() == before || rows.size() >= limit) {
        return rows;
      }
      token = next;
    }
  }
}

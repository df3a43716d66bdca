package dev.trainyard.flaky.ingest;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Values in a test's name that change on every run — a UUID, a date and time, an epoch time in
 * milliseconds, a port a test server bound — written in place of themselves, so that {@code
 * test_fetch[port=54321]} and {@code test_fetch[port=40117]} are one test with one history and one
 * quarantine instead of a new test each run (API.md §5). The rule, applied in this order:
 *
 * <table>
 *   <tr><th>what</th><th>example</th><th>written as</th></tr>
 *   <tr><td>a UUID</td><td>{@code 3f2a…-…}</td><td>{@code <uuid>}</td></tr>
 *   <tr><td>an ISO-8601 date and time</td><td>{@code 2026-11-29T21:30:05.123Z}</td>
 *       <td>{@code <time>}</td></tr>
 *   <tr><td>13 digits from 2001 to 2286 in epoch milliseconds</td><td>{@code 1764451805123}</td>
 *       <td>{@code <time>}</td></tr>
 *   <tr><td>a port after a loopback host, or after {@code port=} / {@code port:}</td>
 *       <td>{@code localhost:54321}, {@code port=54321}</td>
 *       <td>{@code localhost:<port>}, {@code port=<port>}</td></tr>
 * </table>
 *
 * Nothing else is touched: {@code [1]}, {@code 404}, {@code 2026-11-29} (a date alone) and version
 * numbers stay, as they name a case, not a run.
 */
public final class VolatileValues {
  private record Rule(Pattern pattern, String replacement) {}

  private static final List<Rule> RULES =
      List.of(
          new Rule(
              Pattern.compile(
                  "\\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\\b"),
              "<uuid>"),
          new Rule(
              Pattern.compile(
                  "\\b\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}(?::\\d{2}(?:[.,]\\d+)?)?"
                      + "(?:Z|[+-]\\d{2}:?\\d{2})?(?![\\d:])"),
              "<time>"),
          new Rule(Pattern.compile("(?<!\\d)(?:1\\d|2[0-2])\\d{11}(?!\\d)"), "<time>"),
          new Rule(
              Pattern.compile(
                  "((?:localhost|127\\.0\\.0\\.1|0\\.0\\.0\\.0|\\[::1\\]):)\\d{2,5}(?!\\d)"),
              "$1<port>"),
          new Rule(Pattern.compile("(?i)(\\bport\\s*[=:]\\s*)\\d{2,5}(?!\\d)"), "$1<port>"));

  private VolatileValues() {}

  /** {@code name} with the values that change every run written in their place. */
  public static String normalised(String name) {
    if (name == null) {
      return null;
    }
    String out = name;
    for (Rule rule : RULES) {
      Matcher m = rule.pattern().matcher(out);
      if (m.find()) {
        out = m.replaceAll(rule.replacement());
      }
    }
    return out;
  }
}

package dev.trainyard.flaky.owners;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A CODEOWNERS file read with GitHub's semantics: one {@code pattern owner…} per line, {@code #}
 * comments, gitignore-style patterns (a pattern with a slash before its end is anchored at the
 * root; {@code *} stays within a directory, {@code **} crosses them; a pattern naming a directory
 * covers everything in it, but {@code docs/*} covers only the files directly in {@code docs}), and
 * the last matching line wins — a match without owners leaves the path unowned.
 *
 * <p>Patterns are matched segment by segment with a table (pattern segments × path segments), not
 * as regular expressions: a hostile pattern ({@code **}/{@code **}/…, {@code *a*a*a*…}) costs at
 * most the product of the two lengths, never exponential backtracking. Paths longer than {@value
 * #MAX_PATH} characters (longer than an upload accepts) own nobody.
 */
public final class Codeowners {
  public static final int MAX_PATH = 4096;

  /** GitHub ignores a CODEOWNERS file over 3 MB; trainyard neither reads nor accepts one. */
  public static final int MAX_FILE_BYTES = 3 * 1024 * 1024;

  private static final String ANY_DIRS = "**";

  private record Rule(String[] segments, List<String> owners) {}

  private final List<Rule> rules;

  private Codeowners(List<Rule> rules) {
    this.rules = List.copyOf(rules);
  }

  public static Codeowners parse(String text) {
    List<Rule> rules = new ArrayList<>();
    for (String raw : text.split("\\R")) {
      String line = raw.strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      int comment = line.indexOf(" #");
      if (comment >= 0) {
        line = line.substring(0, comment).strip();
      }
      String[] parts = line.split("\\s+");
      String pattern = parts[0].startsWith("\\#") ? parts[0].substring(1) : parts[0];
      rules.add(
          new Rule(segments(pattern), List.copyOf(Arrays.asList(parts).subList(1, parts.length))));
    }
    return new Codeowners(rules);
  }

  /** The owners of {@code path} (relative to the repository root), empty when nobody owns it. */
  public List<String> owners(String path) {
    String relative = path.startsWith("/") ? path.substring(1) : path;
    if (relative.length() > MAX_PATH) {
      return List.of();
    }
    String[] names = relative.split("/", -1);
    List<String> owners = List.of();
    for (Rule rule : rules) {
      if (matches(rule.segments(), names)) {
        owners = rule.owners();
      }
    }
    return owners;
  }

  /**
   * The pattern as segments; {@code **} as a segment is any number of directories. Runs of {@code
   * **} segments collapse to one, runs of {@code *} inside a segment to one (a {@code **} that is
   * not a whole segment is a {@code *}, as in gitignore).
   */
  static String[] segments(String pattern) {
    boolean directory = pattern.endsWith("/");
    String body = directory ? pattern.substring(0, pattern.length() - 1) : pattern;
    boolean anchored = body.startsWith("/") || body.contains("/");
    if (body.startsWith("/")) {
      body = body.substring(1);
    }
    List<String> out = new ArrayList<>();
    if (!anchored) {
      out.add(ANY_DIRS);
    }
    for (String segment : body.split("/")) {
      String s = segment.matches("\\*{2,}") ? ANY_DIRS : segment.replaceAll("\\*+", "*");
      if (s.isEmpty()
          || (s.equals(ANY_DIRS) && !out.isEmpty() && out.get(out.size() - 1).equals(ANY_DIRS))) {
        continue;
      }
      out.add(s);
    }
    String last = out.isEmpty() ? ANY_DIRS : out.get(out.size() - 1);
    boolean coversContents =
        directory || last.equals(ANY_DIRS) || (!last.contains("*") && !last.contains("?"));
    if (coversContents && !last.equals(ANY_DIRS)) {
      out.add(ANY_DIRS);
    }
    return out.toArray(String[]::new);
  }

  /** Whether the path's names match the pattern's segments: a table filled from the ends. */
  static boolean matches(String[] pattern, String[] names) {
    int p = pattern.length;
    int n = names.length;
    boolean[] next = new boolean[n + 1]; // row i + 1
    next[n] = true;
    for (int i = p - 1; i >= 0; i--) {
      boolean[] row = new boolean[n + 1];
      boolean anyDirs = pattern[i].equals(ANY_DIRS);
      for (int j = n; j >= 0; j--) {
        row[j] =
            anyDirs
                ? next[j] || (j < n && row[j + 1])
                : j < n && next[j + 1] && glob(pattern[i], names[j]);
      }
      next = row;
    }
    return next[0];
  }

  /** {@code *} and {@code ?} within one name; linear backtracking to the last star only. */
  static boolean glob(String pattern, String name) {
    int p = 0;
    int s = 0;
    int star = -1;
    int mark = 0;
    while (s < name.length()) {
      if (p < pattern.length()
          && (pattern.charAt(p) == '?' || pattern.charAt(p) == name.charAt(s))) {
        p++;
        s++;
      } else if (p < pattern.length() && pattern.charAt(p) == '*') {
        star = p++;
        mark = s;
      } else if (star >= 0) {
        p = star + 1;
        s = ++mark;
      } else {
        return false;
      }
    }
    while (p < pattern.length() && pattern.charAt(p) == '*') {
      p++;
    }
    return p == pattern.length();
  }
}

package dev.trainyard.flaky.owners;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A CODEOWNERS file read with GitHub's semantics: one {@code pattern owner…} per line, {@code #}
 * comments, gitignore-style patterns (a pattern with a slash before its end is anchored at the
 * root; {@code *} stays within a directory, {@code **} crosses them; a pattern naming a directory
 * covers everything in it, but {@code docs/*} covers only the files directly in {@code docs}), and
 * the last matching line wins — a match without owners leaves the path unowned.
 */
public final class Codeowners {
  private record Rule(Pattern pattern, List<String> owners) {}

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
          new Rule(
              Pattern.compile(regex(pattern)),
              List.copyOf(Arrays.asList(parts).subList(1, parts.length))));
    }
    return new Codeowners(rules);
  }

  /** The owners of {@code path} (relative to the repository root), empty when nobody owns it. */
  public List<String> owners(String path) {
    String relative = path.startsWith("/") ? path.substring(1) : path;
    List<String> owners = List.of();
    for (Rule rule : rules) {
      if (rule.pattern().matcher(relative).matches()) {
        owners = rule.owners();
      }
    }
    return owners;
  }

  static String regex(String pattern) {
    boolean directory = pattern.endsWith("/");
    String body = directory ? pattern.substring(0, pattern.length() - 1) : pattern;
    boolean anchored = body.startsWith("/") || body.contains("/");
    if (body.startsWith("/")) {
      body = body.substring(1);
    }
    String last = body.substring(body.lastIndexOf('/') + 1);
    boolean coversContents =
        directory || last.equals("**") || (!last.contains("*") && !last.contains("?"));
    StringBuilder out = new StringBuilder(anchored ? "" : "(?:.*/)?");
    out.append(glob(body));
    if (coversContents && !body.endsWith("**")) {
      out.append("(?:/.*)?");
    }
    return out.toString();
  }

  private static String glob(String body) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < body.length(); i++) {
      char c = body.charAt(i);
      if (c == '*' && i + 1 < body.length() && body.charAt(i + 1) == '*') {
        boolean slashAfter = i + 2 < body.length() && body.charAt(i + 2) == '/';
        out.append(slashAfter ? "(?:.*/)?" : ".*");
        i += slashAfter ? 2 : 1;
      } else if (c == '*') {
        out.append("[^/]*");
      } else if (c == '?') {
        out.append("[^/]");
      } else {
        out.append(Pattern.quote(String.valueOf(c)));
      }
    }
    return out.toString();
  }
}

package dev.trainyard.common.queue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The message of the commit a queue writes for each PR it lands (API.md §3 {@code
 * mergeCommitMessage}): a one-line {@code title} and a {@code body}, each a template whose {@code
 * {{placeholder}}}s ({@link #PLACEHOLDERS}; spaces inside the braces allowed) are filled from the
 * PR and its run. It shapes the merge commit of {@code merge_commit} (written when the run's test
 * branch is built, so the commit CI tested is the one that lands) and the commit of {@code squash};
 * a {@code rebase} keeps the PR's own commits and their messages, as GitHub does. The run's trailer
 * is added after the template, whatever it says. A queue without one uses {@link #defaultFor} its
 * merge method.
 */
public record MergeCommitMessage(String title, String body) {
  /** The longest title template, in characters (GitHub cuts commit titles far shorter). */
  public static final int MAX_TITLE = 256;

  /** The longest body template, in characters: a queue document stays small. */
  public static final int MAX_BODY = 4_096;

  /** What a template may name, each with what it is filled with. */
  public static final Map<String, String> PLACEHOLDERS =
      orderedMap(
          "number", "the PR's number",
          "title", "the PR's title",
          "author", "the PR's author (GitHub login, or the git author's name)",
          "body", "the PR's description (on plain git: its head commit's message after the title)",
          "coAuthors",
              "a Co-authored-by line for each other author of the PR's commits and each"
                  + " Co-authored-by line they carry",
          "runId", "the test run that tested it",
          "targetBranch", "the branch it lands on",
          "repo", "owner/name");

  private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{\\s*([^{}]*?)\\s*}}");

  /** The trailer trainyard signs each commit it writes with (the git adapter's). */
  public static final String RUN_TRAILER = "Trainyard-Test-Run";

  /** trainyard's merge commits before templates, and GitHub's own shape. */
  public static final MergeCommitMessage MERGE_DEFAULT =
      new MergeCommitMessage("Merge pull request #{{number}}: {{title}}", "");

  /** A squash as GitHub writes one by default: the PR's title and number, its description. */
  public static final MergeCommitMessage SQUASH_DEFAULT =
      new MergeCommitMessage("{{title}} (#{{number}})", "{{body}}\n\n{{coAuthors}}");

  public MergeCommitMessage {
    body = body == null ? "" : body;
  }

  /**
   * A template from the wire, checked: the exception names the field ({@code
   * mergeCommitMessage.title} or {@code .body}) and the unknown placeholder.
   *
   * @throws IllegalArgumentException for a blank or multi-line title, a template too long, or a
   *     placeholder not in {@link #PLACEHOLDERS}
   */
  public static MergeCommitMessage of(String title, String body) {
    String field = "mergeCommitMessage.";
    if (title == null || title.isBlank()) {
      throw new IllegalArgumentException(field + "title is required (a one-line template)");
    }
    if (title.contains("\n") || title.contains("\r")) {
      throw new IllegalArgumentException(field + "title must be one line");
    }
    if (title.length() > MAX_TITLE) {
      throw new IllegalArgumentException(
          field + "title may be at most " + MAX_TITLE + " characters");
    }
    String text = body == null ? "" : body.replace("\r\n", "\n");
    if (text.length() > MAX_BODY) {
      throw new IllegalArgumentException(field + "body may be at most " + MAX_BODY + " characters");
    }
    known(field + "title", title);
    known(field + "body", text);
    if ((title + "\n" + text)
        .toLowerCase(Locale.ROOT)
        .contains(RUN_TRAILER.toLowerCase(Locale.ROOT))) {
      throw new IllegalArgumentException(
          "mergeCommitMessage must not write the "
              + RUN_TRAILER
              + " trailer: trainyard adds it, in the message's last paragraph, to find a landing"
              + " again after a crash");
    }
    return new MergeCommitMessage(title, text);
  }

  private static void known(String field, String template) {
    Matcher m = PLACEHOLDER.matcher(template);
    while (m.find()) {
      if (!PLACEHOLDERS.containsKey(m.group(1))) {
        throw new IllegalArgumentException(
            field
                + ": unknown placeholder "
                + m.group()
                + "; known: "
                + String.join(
                    ", ", PLACEHOLDERS.keySet().stream().map(p -> "{{" + p + "}}").toList()));
      }
    }
  }

  /** The template a queue lands {@code method} with: its own, else {@code method}'s default. */
  public static MergeCommitMessage effective(MergeCommitMessage configured, MergeMethod method) {
    if (configured != null && method != MergeMethod.REBASE) {
      return configured;
    }
    return method == MergeMethod.SQUASH ? SQUASH_DEFAULT : MERGE_DEFAULT;
  }

  /** Whether the title or the body names {@code placeholder} (a host reads only what is used). */
  public boolean uses(String placeholder) {
    return names(title).contains(placeholder) || names(body).contains(placeholder);
  }

  private static List<String> names(String template) {
    List<String> names = new ArrayList<>();
    Matcher m = PLACEHOLDER.matcher(template);
    while (m.find()) {
      names.add(m.group(1));
    }
    return names;
  }

  /**
   * The commit message for one PR: the title on one line (line breaks in what fills it become
   * spaces; {@code <title> (#<number>)} when it comes out empty), a blank line and the body when it
   * is not empty; runs of blank lines a missing value leaves are closed up.
   */
  public String render(Fields fields) {
    String head = fill(title, fields).replaceAll("\\s*[\\r\\n]+\\s*", " ").strip();
    if (head.isEmpty()) {
      head = fill(SQUASH_DEFAULT.title, fields).strip(); // a subject is never empty
    }
    String text = fill(body, fields).replace("\r\n", "\n").replaceAll("[ \\t]+\n", "\n").strip();
    text = text.replaceAll("\n{3,}", "\n\n");
    return text.isEmpty() ? head : head + "\n\n" + text;
  }

  private static String fill(String template, Fields fields) {
    Matcher m = PLACEHOLDER.matcher(template);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(out, Matcher.quoteReplacement(fields.value(m.group(1))));
    }
    m.appendTail(out);
    return out.toString();
  }

  /**
   * What fills a template for one PR. {@code coAuthors}: {@code Name <email>} of each other author,
   * in the order first seen; {@code author}, {@code body}: empty when the host does not say.
   */
  public record Fields(
      long number,
      String title,
      String author,
      String body,
      List<String> coAuthors,
      String runId,
      String targetBranch,
      String repo) {
    public Fields {
      coAuthors = coAuthors == null ? List.of() : List.copyOf(coAuthors);
    }

    String value(String placeholder) {
      return switch (placeholder) {
        case "number" -> Long.toString(number);
        case "title" -> orEmpty(title);
        case "author" -> orEmpty(author);
        case "body" -> orEmpty(body);
        case "coAuthors" ->
            String.join("\n", coAuthors.stream().map(a -> "Co-authored-by: " + a).toList());
        case "runId" -> orEmpty(runId);
        case "targetBranch" -> orEmpty(targetBranch);
        case "repo" -> orEmpty(repo);
        default ->
            throw new IllegalArgumentException(
                "unknown placeholder " + placeholder.toLowerCase(Locale.ROOT));
      };
    }

    private static String orEmpty(String value) {
      return value == null ? "" : value;
    }
  }

  private static Map<String, String> orderedMap(String... pairs) {
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      map.put(pairs[i], pairs[i + 1]);
    }
    return Collections.unmodifiableMap(map);
  }
}

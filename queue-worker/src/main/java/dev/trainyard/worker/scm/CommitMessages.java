package dev.trainyard.worker.scm;

import dev.trainyard.common.queue.MergeCommitMessage;
import dev.trainyard.common.queue.OrgRepo;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Supplier;

/**
 * How a landing or a test branch writes its commits' messages: the queue's {@code template} for run
 * {@code runId}. A host reads a PR's description and commits only when the template names them
 * ({@link #render}).
 */
public record CommitMessages(MergeCommitMessage template, String runId) {

  /** The message for {@code pr}; {@code text} is asked only when the template needs it. */
  public String render(
      OrgRepo repo, String targetBranch, PullRequestHead pr, Supplier<PullRequestText> text) {
    boolean needsText =
        template.uses("author") || template.uses("body") || template.uses("coAuthors");
    PullRequestText read = needsText ? text.get() : PullRequestText.NONE;
    return template.render(
        new MergeCommitMessage.Fields(
            pr.number(),
            pr.title(),
            read.author(),
            read.body(),
            read.coAuthors(),
            runId,
            targetBranch,
            repo.repo().slug()));
  }

  /**
   * What a host says of a PR beyond its title: its author, its description, and the other authors
   * of its commits ({@code Name <email>}, in the order first seen).
   */
  public record PullRequestText(String author, String body, List<String> coAuthors) {
    static final PullRequestText NONE = new PullRequestText("", "", List.of());

    public PullRequestText {
      coAuthors = List.copyOf(coAuthors);
    }
  }

  /** One commit of a PR, as {@link #coAuthors} reads it. */
  public record CommitAuthor(String name, String email, String login, String message) {}

  /**
   * The PR's co-authors from its commits: each commit's author who is not the PR's (by {@code
   * login} where the host knows it, else by email), and each {@code Co-authored-by} line of their
   * messages, once each (by email, in any letter case), in the order first seen.
   */
  public static List<String> coAuthors(String prLogin, String prEmail, List<CommitAuthor> commits) {
    Set<String> seen = new LinkedHashSet<>();
    if (prEmail != null) {
      seen.add(prEmail.toLowerCase(Locale.ROOT));
    }
    List<String> out = new ArrayList<>();
    for (CommitAuthor commit : commits) {
      boolean theAuthor =
          prLogin != null && !prLogin.isEmpty() && prLogin.equalsIgnoreCase(commit.login());
      if (!theAuthor && commit.email() != null && !commit.email().isBlank()) {
        add(out, seen, commit.name(), commit.email());
      }
      if (commit.message() == null) {
        continue;
      }
      for (String line : commit.message().lines().toList()) {
        String l = line.strip();
        if (l.regionMatches(true, 0, "Co-authored-by:", 0, 15)) {
          String who = l.substring(15).strip();
          int lt = who.lastIndexOf('<');
          if (lt > 0 && who.endsWith(">")) {
            add(out, seen, who.substring(0, lt).strip(), who.substring(lt + 1, who.length() - 1));
          }
        }
      }
    }
    return out;
  }

  private static void add(List<String> out, Set<String> seen, String name, String email) {
    if (seen.add(email.toLowerCase(Locale.ROOT))) {
      out.add((name == null || name.isBlank() ? email : name.strip()) + " <" + email + ">");
    }
  }
}

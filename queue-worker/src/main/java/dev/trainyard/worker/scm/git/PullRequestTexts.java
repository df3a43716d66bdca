package dev.trainyard.worker.scm.git;

import dev.trainyard.worker.scm.CommitMessages;
import dev.trainyard.worker.scm.CommitMessages.CommitAuthor;
import dev.trainyard.worker.scm.CommitMessages.PullRequestText;
import dev.trainyard.worker.scm.PullRequestHead;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;

/**
 * A PR's author, description and co-authors on a plain git repository, where a PR is only its head
 * commit: the head's author, the head's message after its first paragraph (the title; at most
 * {@value #MAX_BODY} characters), and the other authors of the commits the PR adds to {@code onto}
 * and to its base (a stacked PR's base is the PR below, whose commits are not its own), at most
 * {@value #MAX_COMMITS} of them, as GitHub reads a squash's.
 */
final class PullRequestTexts {
  static final int MAX_COMMITS = 250;
  static final int MAX_BODY = 65_536;

  private PullRequestTexts() {}

  static PullRequestText read(Repository git, ObjectId onto, PullRequestHead pr) {
    try (RevWalk walk = new RevWalk(git)) {
      RevCommit head = walk.parseCommit(ObjectId.fromString(pr.sha()));
      PersonIdent author = head.getAuthorIdent();
      String message = head.getFullMessage().replace("\r\n", "\n").strip();
      int blank = message.indexOf("\n\n");
      String body = blank < 0 ? "" : message.substring(blank + 2).strip();
      walk.markStart(head);
      walk.markUninteresting(walk.parseCommit(onto));
      Ref base = pr.baseBranch() == null ? null : git.findRef(pr.baseBranch());
      if (base != null && base.getObjectId() != null) {
        walk.markUninteresting(walk.parseCommit(base.getObjectId()));
      }
      List<CommitAuthor> commits = new ArrayList<>();
      for (RevCommit c : walk) {
        if (commits.size() == MAX_COMMITS) {
          break;
        }
        commits.add(
            0,
            new CommitAuthor(
                c.getAuthorIdent().getName(),
                c.getAuthorIdent().getEmailAddress(),
                null,
                c.getFullMessage()));
      }
      return new PullRequestText(
          author.getName(),
          body.length() > MAX_BODY ? body.substring(0, MAX_BODY) : body,
          CommitMessages.coAuthors(null, author.getEmailAddress(), commits));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

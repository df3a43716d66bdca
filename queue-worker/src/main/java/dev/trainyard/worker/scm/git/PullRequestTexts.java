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
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;

/**
 * A PR's author, description and co-authors on a plain git repository, where a PR is only its head
 * commit: the head's author, the head's message after its first paragraph (the title), and the
 * other authors of the commits the PR adds to {@code onto}.
 */
final class PullRequestTexts {
  private PullRequestTexts() {}

  static PullRequestText read(Repository git, ObjectId onto, PullRequestHead pr) {
    try {
      RevCommit head = InMemoryMerges.parse(git, ObjectId.fromString(pr.sha()));
      PersonIdent author = head.getAuthorIdent();
      String message = head.getFullMessage().replace("\r\n", "\n").strip();
      int blank = message.indexOf("\n\n");
      List<CommitAuthor> commits = new ArrayList<>();
      for (RevCommit c : InMemoryMerges.ownCommits(git, onto, head)) {
        commits.add(
            new CommitAuthor(
                c.getAuthorIdent().getName(),
                c.getAuthorIdent().getEmailAddress(),
                null,
                c.getFullMessage()));
      }
      return new PullRequestText(
          author.getName(),
          blank < 0 ? "" : message.substring(blank + 2).strip(),
          CommitMessages.coAuthors(null, author.getEmailAddress(), commits));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

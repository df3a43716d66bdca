package dev.trainyard.worker.scm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.queue.MergeCommitMessage;
import dev.trainyard.common.queue.OrgRepo;
import dev.trainyard.common.queue.RepoRef;
import dev.trainyard.worker.scm.CommitMessages.CommitAuthor;
import dev.trainyard.worker.scm.CommitMessages.PullRequestText;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class CommitMessagesTest {

  @Test
  void coAuthorsAreTheOtherAuthorsAndTheirTrailersOnceEachInTheOrderSeen() {
    List<CommitAuthor> commits =
        List.of(
            new CommitAuthor("Ann", "ann@example.com", "ann", "Start"),
            new CommitAuthor(
                "Bob", "bob@example.com", "bob", "Help\n\nCo-authored-by: Cid <CID@example.com>"),
            new CommitAuthor(
                "Ann", "ann@work.example", "ann", "More\n\nco-authored-by: Dee <dee@example.com>"),
            new CommitAuthor("Bob", "BOB@example.com", "bob", "Again"),
            new CommitAuthor(
                "",
                "eve@example.com",
                "",
                "Co-authored-by: cid <cid@example.com>\nCo-authored-by: nobody"));

    assertThat(CommitMessages.coAuthors("ann", null, commits))
        .containsExactly(
            "Bob <bob@example.com>",
            "Cid <CID@example.com>",
            "Dee <dee@example.com>",
            "eve@example.com <eve@example.com>");
    // on plain git there are no logins: the PR's author is known by the head's email
    assertThat(CommitMessages.coAuthors(null, "ann@example.com", commits))
        .startsWith("Bob <bob@example.com>", "Cid <CID@example.com>", "Ann <ann@work.example>");
  }

  @Test
  void theHostIsAskedForThePrsTextOnlyWhenTheTemplateNamesIt() {
    OrgRepo repo = new OrgRepo("org", new RepoRef("github.com", "acme", "app"));
    PullRequestHead pr = new PullRequestHead(5, "abc", "Fix it");
    AtomicInteger asked = new AtomicInteger();
    PullRequestText text = new PullRequestText("ann", "Body.", List.of());

    java.util.function.Supplier<PullRequestText> host =
        () -> {
          asked.incrementAndGet();
          return text;
        };
    String plain =
        new CommitMessages(MergeCommitMessage.MERGE_DEFAULT, "r").render(repo, "main", pr, host);
    String full =
        new CommitMessages(MergeCommitMessage.SQUASH_DEFAULT, "r").render(repo, "main", pr, host);

    assertThat(plain).isEqualTo("Merge pull request #5: Fix it");
    assertThat(full).isEqualTo("Fix it (#5)\n\nBody.");
    assertThat(asked).hasValue(1);
  }
}

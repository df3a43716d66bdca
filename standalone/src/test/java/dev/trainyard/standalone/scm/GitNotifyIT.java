package dev.trainyard.standalone.scm;

import static dev.trainyard.standalone.support.Api.body;
import static dev.trainyard.standalone.support.Api.prBody;
import static dev.trainyard.worker.scm.git.BareRepo.files;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.GitHost;
import dev.trainyard.standalone.support.OwnStack;
import dev.trainyard.standalone.support.TestStack;
import dev.trainyard.worker.scm.git.BareRepo;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.awaitility.Awaitility;
import org.eclipse.jgit.lib.ObjectId;
import org.junit.jupiter.api.Test;

/**
 * With polling effectively off, a post-receive notify alone makes the worker read the pushed PR:
 * when the notify answers 200, the resulting change is on the queue's log.
 */
class GitNotifyIT extends OwnStack {
  private final Path gitRoot = GitHost.newRoot();

  @Override
  protected Map<String, Object> properties() {
    return Map.of("trainyard.git.root", gitRoot.toString(), "trainyard.scm.poll-interval", "1h");
  }

  @Test
  void aNotifyReadsThePushedPullRequestAtOnce() throws Exception {
    Api api = stack.api();
    String name = Api.uniqueRepo();
    String notify =
        "{\"repo\":{\"host\":\"github.com\",\"owner\":\"acme\",\"name\":\"" + name + "\"}}";
    assertThat(api.post("/v1/scm/git/notify", notify).status())
        .as("no queue uses it yet")
        .isEqualTo(404);
    try (BareRepo repo = new BareRepo(GitHost.location(gitRoot, TestStack.ORG, name))) {
      ObjectId main = repo.commit(null, files("README", "hi\n"), "initial", "carol");
      repo.setRef("refs/heads/main", main);
      assertThat(api.post("/v1/createQueue", body(name, "")).status()).isEqualTo(200);
      // paused, so the ready PR stays pending instead of moving on to a test run
      assertThat(api.post("/v1/updateQueue", body(name, "\"state\":\"paused\"")).status())
          .isEqualTo(200);
      assertThat(api.post("/v1/submitPullRequest", prBody(name, 1)).status()).isEqualTo(200);
      ObjectId head = repo.commit(main, files("README", "hi\n", "b.txt", "b\n"), "Add b", "alice");
      repo.setRef("refs/pull/1/head", head);

      Api.Response notified = api.post("/v1/scm/git/notify", notify);
      assertThat(notified.status()).as(notified.body()).isEqualTo(200);

      Awaitility.await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  api.post("/v1/getSubmittedPullRequest", prBody(name, 1))
                      .json()
                      .get("state")
                      .asString(),
              "pending"::equals);
      assertThat(
              api.post("/v1/getSubmittedPullRequest", prBody(name, 1))
                  .json()
                  .get("prSha")
                  .asString())
          .isEqualTo(head.name());
    }
  }
}

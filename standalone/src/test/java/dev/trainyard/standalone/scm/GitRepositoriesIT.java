package dev.trainyard.standalone.scm;

import static dev.trainyard.standalone.support.Api.body;
import static dev.trainyard.standalone.support.Api.prBody;
import static dev.trainyard.worker.scm.git.BareRepo.files;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.EventLog;
import dev.trainyard.standalone.support.GitHost;
import dev.trainyard.standalone.support.OwnStack;
import dev.trainyard.standalone.support.TestStack;
import dev.trainyard.worker.scm.git.BareRepo;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import org.eclipse.jgit.lib.ObjectId;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A queue on a plain git repository (a bare repository under the git root, PRs as
 * refs/pull/n/head): the worker reads each submitted PR, computes its mergeability with a real
 * merge, and queues the ready ones; a push updates the PR, a deleted ref closes it.
 */
class GitRepositoriesIT extends OwnStack {
  /**
   * How long a PR may take to reach a state: a stack that just started may still rebalance its
   * command partitions once, and an effect whose result the new epoch refuses is started again only
   * after the worker's effect patience (30 s). CI once saw a PR stay pending here for 30 s.
   */
  private static final Duration PATIENCE = Duration.ofSeconds(75);

  private final Path gitRoot = GitHost.newRoot();

  @Override
  protected Map<String, Object> properties() {
    return Map.of("trainyard.git.root", gitRoot.toString());
  }

  @Test
  void submittedPullRequestsAreReadFromTheRepository() throws Exception {
    Api api = stack.api();
    String name = Api.uniqueRepo();
    try (BareRepo repo = new BareRepo(GitHost.location(gitRoot, TestStack.ORG, name))) {
      ObjectId main = repo.commit(null, files("README", "hi\n"), "initial", "carol");
      repo.setRef("refs/heads/main", main);
      ObjectId good = repo.commit(main, files("README", "hi\n", "b.txt", "b\n"), "Add b", "alice");
      repo.setRef("refs/pull/1/head", good);
      ObjectId clash = repo.commit(main, files("README", "theirs\n"), "Reword readme", "bob");
      repo.setRef("refs/pull/2/head", clash);
      repo.setRef(
          "refs/heads/main", repo.commit(main, files("README", "ours\n"), "Main moves", "carol"));

      assertThat(api.post("/v1/createQueue", body(name, "")).status()).isEqualTo(200);
      // paused: the PRs are read and queued but not tested, so a push only updates PR 1
      assertThat(api.post("/v1/updateQueue", body(name, "\"state\":\"paused\"")).status())
          .isEqualTo(200);
      assertThat(api.post("/v1/submitPullRequest", prBody(name, 1)).status()).isEqualTo(200);
      assertThat(api.post("/v1/submitPullRequest", prBody(name, 2)).status()).isEqualTo(200);

      JsonNode one = awaitPr(api, name, 1, pr -> pr.get("state").asString().equals("pending"));
      assertThat(one.get("prTitle").asString()).isEqualTo("Add b");
      assertThat(one.get("prSha").asString()).isEqualTo(good.name());
      assertThat(one.get("prAuthor").asString()).isEqualTo("alice");
      assertThat(one.get("readiness").get("gitHubMergeability").asString()).isEqualTo("mergeable");
      JsonNode two =
          awaitPr(
              api,
              name,
              2,
              pr ->
                  pr.get("readiness").get("gitHubMergeability").asString().equals("not_mergeable"));
      assertThat(two.get("state").asString()).isEqualTo("not_ready");
      assertThat(two.get("prTitle").asString()).isEqualTo("Reword readme");

      // a push to PR 1 is seen and takes it out (what was submitted is what lands: ADR 0024);
      // deleting PR 2's ref closes it
      ObjectId pushed =
          repo.commit(good, files("README", "hi\n", "b.txt", "b2\n"), "Fix b", "alice");
      repo.setRef("refs/pull/1/head", pushed);
      repo.deleteRef("refs/pull/2/head");

      JsonNode cancelled =
          awaitPr(api, name, 1, pr -> pr.get("state").asString().equals("cancelled"));
      assertThat(cancelled.get("prSha").asString())
          .as("the head it was submitted at")
          .isEqualTo(good.name());
      awaitPr(api, name, 2, pr -> pr.get("state").asString().equals("cancelled"));
      assertThat(
              EventLog.readAll(stack.infrastructure().kafkaBootstrap()).stream()
                  .filter(e -> e.body().path("repository").path("name").asString("").equals(name))
                  .map(
                      e ->
                          e.type()
                              + " "
                              + e.body().path("pr_number").asLong(0) // 0: the queue's own
                              + " "
                              + e.body().path("cancellation_reason").asString("")))
          .contains(
              "pull_request.queued 1 ",
              "pull_request.canceled 1 PR_PUSHED_TO",
              "pull_request.canceled 2 PR_CLOSED");
    }
  }

  @Test
  void anotherOrganizationNamingTheRepositoryIsNotServedAndLeavesItUntouched() throws Exception {
    Api owner = stack.api();
    Api stranger = stack.otherOrganization().api();
    String name = Api.uniqueRepo();
    try (GitHost git = new GitHost(gitRoot, TestStack.ORG, owner, name)) {
      git.openPr(1, "Add a", "alice", "a.txt", "a\n");
      ObjectId main = git.main();
      // the stranger queues first, so every poll that serves the owner has seen its queue too
      assertThat(stranger.post("/v1/createQueue", body(name, "")).status()).isEqualTo(200);
      assertThat(stranger.post("/v1/submitPullRequest", prBody(name, 1)).status()).isEqualTo(200);
      assertThat(stranger.post("/v1/scm/git/notify", "{\"repo\":" + repo(name) + "}").status())
          .isEqualTo(200);
      assertThat(owner.post("/v1/createQueue", body(name, "")).status()).isEqualTo(200);
      assertThat(owner.post("/v1/submitPullRequest", prBody(name, 1)).status()).isEqualTo(200);

      awaitPr(owner, name, 1, pr -> pr.get("state").asString().equals("testing"));
      Awaitility.await()
          .atMost(PATIENCE)
          .until(() -> git.repo().refs("refs/heads/trainyard-merge/").size() == 1);

      JsonNode theirs = stranger.post("/v1/getSubmittedPullRequest", prBody(name, 1)).json();
      assertThat(theirs.get("state").asString()).isEqualTo("not_ready");
      assertThat(theirs.get("readiness").get("gitHubMergeability").asString())
          .isEqualTo("unspecified");
      assertThat(theirs.get("prSha").asString()).as("nothing was read for it").isEmpty();
      assertThat(theirs.get("readiness").get("notReadyReason").asString())
          .isEqualTo("no source host serves github.com/acme/" + name + " for this organization");
      assertThat(git.repo().refs("refs/heads/trainyard-merge/"))
          .as("the owner's one test branch, none for the stranger")
          .hasSize(1);
      assertThat(git.main()).as("main untouched").isEqualTo(main);
    }
  }

  private static String repo(String name) {
    return "{\"host\":\"github.com\",\"owner\":\"acme\",\"name\":\"" + name + "\"}";
  }

  private static JsonNode awaitPr(
      Api api, String repo, long number, Predicate<JsonNode> condition) {
    return Awaitility.await()
        .atMost(PATIENCE)
        .until(
            () -> api.post("/v1/getSubmittedPullRequest", prBody(repo, number)).json(),
            condition::test);
  }
}

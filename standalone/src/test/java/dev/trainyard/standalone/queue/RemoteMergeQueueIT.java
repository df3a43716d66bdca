package dev.trainyard.standalone.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.json.Json;
import dev.trainyard.standalone.support.GitHost;
import dev.trainyard.standalone.support.TestStack;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * {@link MergeQueueIT}'s scenarios on a remote repository: the git server keeps the repositories
 * outside the stack's git root, and each is registered with {@code setRemote}, so the worker
 * mirrors it, fetches it on notify and poll, and pushes with the expected old value of every ref.
 */
abstract class RemoteMergeQueueIT extends MergeQueueIT {
  protected final Path served = GitHost.newRoot();
  private AutoCloseable server;

  /** Starts the git server over {@link #served}. */
  protected abstract AutoCloseable startServer() throws Exception;

  /** The URL and credentials fields of {@code setRemote} for the repository at {@code path}. */
  protected abstract Map<String, Object> remote(Path path);

  @BeforeAll
  void startGitServer() throws Exception {
    server = startServer();
  }

  @AfterAll
  void stopGitServer() throws Exception {
    server.close();
  }

  @Override
  protected Path repositories() {
    return served;
  }

  @Override
  protected void serve(String repositoryName) {
    Map<String, Object> body =
        new HashMap<>(remote(GitHost.location(served, TestStack.ORG, repositoryName)));
    body.put("repo", Map.of("host", "github.com", "owner", "acme", "name", repositoryName));
    var response = api.post("/v1/scm/git/setRemote", Json.mapper().writeValueAsString(body));
    assertThat(response.status()).as(response.body()).isEqualTo(200);
  }
}

package dev.trainyard.standalone.guarantees;

import static dev.trainyard.standalone.support.Api.body;
import static dev.trainyard.standalone.support.Api.prBody;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.StandaloneProcess;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one-command distribution as a user runs it: {@code java -jar}, SIGTERM, and a restart on the
 * same data directory that finds its broker, its store, its tokens, and every queue and PR.
 */
class StandaloneProcessIT {
  @TempDir Path data;

  @Test
  void survivesARestartOnTheSameData() throws Exception {
    int port = StandaloneProcess.freePort();
    String repo = Api.uniqueRepo();
    String token;
    StandaloneProcess first = StandaloneProcess.start(data, port);
    try {
      token = first.awaitToken();
      Api api = new Api("http://127.0.0.1:" + port, token);
      assertThat(api.post("/v1/createQueue", body(repo, "")).status()).isEqualTo(200);
      assertThat(api.post("/v1/submitPullRequest", prBody(repo, 42)).status()).isEqualTo(200);
      assertThat(api.post("/v1/updateQueue", body(repo, "\"state\":\"paused\"")).status())
          .isEqualTo(200);
    } finally {
      assertThat(first.stop()).as("stops within a minute").isTrue();
    }

    StandaloneProcess second = StandaloneProcess.start(data, port);
    try {
      assertThat(second.awaitToken()).as("the generated token is remembered").isEqualTo(token);
      Api api = new Api("http://127.0.0.1:" + port, token);
      assertThat(api.post("/v1/getQueue", body(repo, "")).json().get("state").asString())
          .isEqualTo("paused");
      assertThat(
              api.post("/v1/getSubmittedPullRequest", prBody(repo, 42))
                  .json()
                  .get("state")
                  .asString())
          .isEqualTo("not_ready");
      // and the restarted broker takes new commands
      assertThat(api.post("/v1/submitPullRequest", prBody(repo, 43)).status()).isEqualTo(200);
    } finally {
      assertThat(second.stop()).as("stops within a minute").isTrue();
    }
  }
}

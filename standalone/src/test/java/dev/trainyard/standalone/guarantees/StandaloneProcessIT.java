package dev.trainyard.standalone.guarantees;

import static dev.trainyard.standalone.support.Api.body;
import static dev.trainyard.standalone.support.Api.prBody;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.ShowsLogOnFailure;
import dev.trainyard.standalone.support.StandaloneProcess;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one-command distribution as a user runs it: {@code java -jar}, SIGTERM, and a restart on the
 * same data directory that finds its broker, its store, its tokens, and every queue and PR.
 */
@ExtendWith(ShowsLogOnFailure.class)
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

    assertThat(first.output())
        .as("a generated token is printed once")
        .anyMatch(l -> l.contains(token));
    StandaloneProcess second = StandaloneProcess.start(data, port);
    try {
      assertThat(second.awaitToken()).as("the generated token is remembered").isEqualTo(token);
      assertThat(second.output())
          .as("and not printed again")
          .noneMatch(l -> l.contains(token))
          .anyMatch(l -> l.contains("API token:    (generated at the first start; kept in"));
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

  @Test
  void tokensGivenThroughTheEnvironmentAreNeverPrintedAndManagementIsOnItsOwnPort()
      throws Exception {
    int port = StandaloneProcess.freePort();
    String apiToken = "ty_given_api_" + Api.uniqueRepo();
    String adminToken = "ty_given_admin_" + Api.uniqueRepo();
    StandaloneProcess standalone =
        StandaloneProcess.start(
            data,
            port,
            java.util.Map.of(
                "TRAINYARD_BOOTSTRAP_TOKEN", apiToken, "TRAINYARD_ADMIN_TOKEN", adminToken));
    try {
      assertThat(standalone.awaitToken()).isEqualTo("(from TRAINYARD_BOOTSTRAP_TOKEN)");
      Api api = new Api("http://127.0.0.1:" + port, apiToken);
      assertThat(api.post("/v1/createQueue", body(Api.uniqueRepo(), "")).status()).isEqualTo(200);
      String management =
          standalone.output().stream()
              .filter(l -> l.trim().startsWith("management:"))
              .findFirst()
              .orElseThrow()
              .replaceAll(".*http://localhost:(\\d+)/.*", "$1");
      Api scrape = new Api("http://127.0.0.1:" + management, null);
      Api.Response metrics = scrape.send(scrape.request("/actuator/prometheus").GET());
      assertThat(metrics.status()).isEqualTo(200);
      assertThat(metrics.body()).contains("# TYPE");
      assertThat(api.send(api.request("/actuator/prometheus").GET()).status())
          .as("not on the API port, even with a token")
          .isEqualTo(404);
    } finally {
      assertThat(standalone.stop()).as("stops within a minute").isTrue();
    }
    assertThat(standalone.output())
        .as("secrets from the environment never reach the output")
        .noneMatch(l -> l.contains(apiToken) || l.contains(adminToken));
    assertThat(java.nio.file.Files.readString(data.resolve("standalone.properties")))
        .as("a given secret is not written down either")
        .doesNotContain(apiToken)
        .doesNotContain(adminToken);
  }
}

package dev.trainyard.standalone.guarantees;

import static dev.trainyard.standalone.support.Api.body;
import static dev.trainyard.standalone.support.Api.prBody;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.standalone.support.Api;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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
    int port = freePort();
    String repo = Api.uniqueRepo();
    String token;
    Process first = start(port);
    try {
      token = awaitToken(first);
      Api api = new Api("http://127.0.0.1:" + port, token);
      assertThat(api.post("/v1/createQueue", body(repo, "")).status()).isEqualTo(200);
      assertThat(api.post("/v1/submitPullRequest", prBody(repo, 42)).status()).isEqualTo(200);
      assertThat(api.post("/v1/updateQueue", body(repo, "\"state\":\"paused\"")).status())
          .isEqualTo(200);
    } finally {
      stop(first);
    }

    Process second = start(port);
    try {
      assertThat(awaitToken(second)).as("the generated token is remembered").isEqualTo(token);
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
      stop(second);
    }
  }

  private Process start(int port) throws IOException {
    Path jar;
    try (Stream<Path> files = Files.list(Path.of("target"))) {
      jar =
          files
              .filter(p -> p.getFileName().toString().matches("trainyard-standalone-.*\\.jar"))
              .findFirst()
              .orElseThrow(() -> new IllegalStateException("package the standalone jar first"));
    }
    ProcessBuilder builder =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx768m",
                "-jar",
                jar.toString())
            .redirectErrorStream(true);
    builder.environment().put("TRAINYARD_DATA_DIR", data.toString());
    builder.environment().put("SERVER_PORT", Integer.toString(port));
    builder.environment().put("TRAINYARD_KAFKA_PORT", "0");
    builder.environment().put("TRAINYARD_MONGO_PORT", "0");
    builder.environment().remove("TRAINYARD_BOOTSTRAP_TOKEN");
    builder.environment().remove("TRAINYARD_ADMIN_TOKEN");
    return builder.start();
  }

  /**
   * Reads the output until the banner names the API token (draining the rest in the background).
   */
  private static String awaitToken(Process process) throws Exception {
    CompletableFuture<String> token = new CompletableFuture<>();
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader out =
                  new BufferedReader(
                      new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                  if (line.trim().startsWith("API token:")) {
                    token.complete(line.trim().substring("API token:".length()).trim());
                  }
                }
                token.completeExceptionally(new IllegalStateException("the standalone exited"));
              } catch (IOException e) {
                token.completeExceptionally(e);
              }
            });
    reader.setDaemon(true);
    reader.start();
    return token.get(Duration.ofSeconds(120).toSeconds(), TimeUnit.SECONDS);
  }

  private static void stop(Process process) throws InterruptedException {
    process.destroy(); // SIGTERM, as Ctrl-C or Kubernetes would
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("stops within a minute").isTrue();
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}

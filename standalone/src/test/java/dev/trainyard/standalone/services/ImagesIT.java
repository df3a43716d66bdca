package dev.trainyard.standalone.services;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.json.Json;
import dev.trainyard.common.webhook.SecretBox;
import dev.trainyard.standalone.support.EmbeddedInfrastructure;
import dev.trainyard.standalone.support.Prerequisites;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/**
 * Each service's OCI image (profile {@code images}), started from its own unpacked filesystem with
 * bubblewrap as a container runtime would: the image's entrypoint, environment and user (65532), a
 * read-only root with a writable {@code /tmp}, settings from the environment alone. It must answer
 * its readiness probe against the broker and the store. Runs where the images were built and {@code
 * bwrap} exists; {@code -Dtrainyard.images=required} (CI) makes their absence a failure instead of
 * a skip.
 */
class ImagesIT {
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  @ParameterizedTest
  @ValueSource(strings = {"gateway", "queue-worker", "webhook-dispatcher", "flaky-tests-service"})
  void theImageStartsFromItsOwnFilesystemAndAnswersHealth(String module) throws Exception {
    Path image = Path.of("..", module, "target", "image", module + "-image.tar").toAbsolutePath();
    Prerequisites.require(
        Files.exists(image) && Prerequisites.onPath("bwrap"),
        "trainyard.images",
        "no image " + image + " built (profile images) or no bwrap");

    Path work = Files.createTempDirectory("trainyard-image-");
    Path rootfs = Files.createDirectories(work.resolve("rootfs"));
    run(work, "tar", "-xf", image.toString(), "-C", work.toString());
    JsonNode manifest =
        blob(
            work,
            Json.mapper().readTree(work.resolve("index.json").toFile()).get("manifests").get(0));
    JsonNode config = blob(work, manifest.get("config")).get("config");
    for (JsonNode layer : manifest.get("layers")) {
      run(
          work,
          "tar",
          "--warning=no-unknown-keyword",
          "-xzf",
          blobPath(work, layer).toString(),
          "-C",
          rootfs.toString());
    }
    assertThat(config.get("User").asString()).as("never root").isEqualTo("65532:65532");

    try (EmbeddedInfrastructure infrastructure = new EmbeddedInfrastructure()) {
      int managementPort = freePort();
      int serverPort = freePort();
      List<String> sandbox =
          new ArrayList<>(
              List.of(
                  "bwrap",
                  "--ro-bind",
                  rootfs.toString(),
                  "/",
                  "--proc",
                  "/proc",
                  "--dev",
                  "/dev",
                  "--tmpfs",
                  "/tmp",
                  "--unshare-user",
                  "--uid",
                  "65532",
                  "--gid",
                  "65532",
                  "--unshare-pid",
                  "--die-with-parent",
                  "--clearenv"));
      for (JsonNode variable : config.get("Env")) {
        String[] pair = variable.asString().split("=", 2);
        setenv(sandbox, pair[0], pair[1]);
      }
      sandbox.add("--");
      List<String> command = new ArrayList<>(sandbox.subList(0, sandbox.size() - 1));
      setenv(command, "SPRING_KAFKA_BOOTSTRAP_SERVERS", infrastructure.kafkaBootstrap());
      setenv(command, "SPRING_MONGODB_URI", infrastructure.mongoUri());
      setenv(command, "TRAINYARD_MANAGEMENT_PORT", Integer.toString(managementPort));
      setenv(command, "SERVER_PORT", Integer.toString(serverPort));
      setenv(command, "TRAINYARD_WEBHOOK_KEY", SecretBox.newKey());
      setenv(
          command, "TRAINYARD_FLAKY_TOKEN_KEY", "token-" + UUID.randomUUID() + UUID.randomUUID());
      setenv(
          command,
          "TRAINYARD_FLAKY_INTERNAL_KEY",
          "internal-" + UUID.randomUUID() + UUID.randomUUID());
      command.add("--");
      config.get("Entrypoint").forEach(part -> command.add(part.asString()));
      Path log = work.resolve(module + ".log");
      Process container =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      try {
        Awaitility.await(module + " image ready (log: " + log + ")")
            .atMost(Duration.ofSeconds(150))
            .pollInterval(Duration.ofMillis(500))
            .until(
                () ->
                    container.isAlive()
                        && status(managementPort, "/actuator/health/readiness") == 200);
        assertThat(status(managementPort, "/actuator/prometheus")).isEqualTo(200);
        if (module.equals("gateway")) {
          clientInTheImageReaches(sandbox, serverPort, work);
        }
      } finally {
        container.destroy();
        assertThat(container.waitFor(60, TimeUnit.SECONDS)).as("stops on SIGTERM").isTrue();
        run(work, "rm", "-rf", work.toString());
      }
    }
  }

  /**
   * The gateway's image carries the command-line client as {@code trainyard} (cli/README.md): run
   * in the image's own filesystem against the gateway, a wrong token is its one-line refusal, exit
   * code 4.
   */
  private static void clientInTheImageReaches(List<String> sandbox, int serverPort, Path work)
      throws Exception {
    List<String> client = new ArrayList<>(sandbox);
    client.addAll(
        List.of(
            "/usr/local/bin/trainyard",
            "queue",
            "get",
            "--repo",
            "acme/rocket",
            "--url",
            "http://127.0.0.1:" + serverPort,
            "--token",
            "ty_not_a_token"));
    Path printed = work.resolve("cli.log");
    Process run =
        new ProcessBuilder(client)
            .redirectErrorStream(true)
            .redirectOutput(printed.toFile())
            .start();
    assertThat(run.waitFor(60, TimeUnit.SECONDS)).as("the client ends").isTrue();
    String output = Files.readString(printed);
    assertThat(run.exitValue()).as(output).isEqualTo(4);
    assertThat(output).startsWith("trainyard: the token was refused").hasLineCount(1);
  }

  private static void setenv(List<String> command, String name, String value) {
    command.addAll(List.of("--setenv", name, value));
  }

  private static JsonNode blob(Path work, JsonNode descriptor) throws IOException {
    return Json.mapper().readTree(blobPath(work, descriptor).toFile());
  }

  private static Path blobPath(Path work, JsonNode descriptor) {
    String[] digest = descriptor.get("digest").asString().split(":");
    return work.resolve("blobs").resolve(digest[0]).resolve(digest[1]);
  }

  private static void run(Path work, String... command) throws Exception {
    Process process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(work.resolveSibling(work.getFileName() + ".out").toFile())
            .start();
    assertThat(process.waitFor(5, TimeUnit.MINUTES) && process.exitValue() == 0)
        .as(String.join(" ", command))
        .isTrue();
  }

  private static int status(int port, String path) {
    try {
      return HTTP.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                  .timeout(Duration.ofSeconds(5))
                  .build(),
              HttpResponse.BodyHandlers.discarding())
          .statusCode();
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  private static int freePort() {
    return dev.trainyard.standalone.infra.FreePorts.next();
  }
}

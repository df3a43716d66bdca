package dev.trainyard.standalone.support;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

/**
 * The test OpenID Connect provider (module {@code test-identity-provider}: Spring Authorization
 * Server) as a process of its own on a loopback port, started and awaited until its discovery
 * document answers. Its people (vera, otto, ada, nobody) share {@link #PASSWORD}; the gateway is
 * registered as client {@link #CLIENT_ID}.
 */
public final class IdentityProviderProcess implements AutoCloseable {
  public static final String CLIENT_ID = "trainyard";
  public static final String CLIENT_SECRET = "trainyard-secret";
  public static final String PASSWORD = "correct-horse";
  private static final Path FOLDER = Path.of("..", "test-identity-provider", "target");

  private final Process process;
  private final Path log;
  private final int port;

  private IdentityProviderProcess(Process process, Path log, int port) {
    this.process = process;
    this.log = log;
    this.port = port;
  }

  public static IdentityProviderProcess start() {
    try {
      int port = StandaloneProcess.freePort();
      Path log = Files.createTempFile("identity-provider", ".log");
      ProcessBuilder builder =
          StandaloneProcess.javaJar(FOLDER, "test-identity-provider-exec\\.jar", "256m");
      builder
          .command()
          .addAll(java.util.List.of("--server.port=" + port, "--server.address=127.0.0.1"));
      Process process = builder.redirectErrorStream(true).redirectOutput(log.toFile()).start();
      IdentityProviderProcess provider = new IdentityProviderProcess(process, log, port);
      provider.awaitReady();
      return provider;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** The issuer the gateway is configured with (the discovery document says the same). */
  public String issuer() {
    return "http://127.0.0.1:" + port;
  }

  private void awaitReady() throws IOException {
    HttpClient http = HttpClient.newHttpClient();
    Instant deadline = Instant.now().plus(Duration.ofSeconds(90));
    while (Instant.now().isBefore(deadline)) {
      if (!process.isAlive()) {
        throw new IllegalStateException("the identity provider stopped:\n" + Files.readString(log));
      }
      try {
        HttpResponse<Void> answer =
            http.send(
                HttpRequest.newBuilder(URI.create(issuer() + "/.well-known/openid-configuration"))
                    .build(),
                HttpResponse.BodyHandlers.discarding());
        if (answer.statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
      sleep();
    }
    throw new IllegalStateException(
        "the identity provider did not start:\n" + Files.readString(log));
  }

  private static void sleep() {
    try {
      Thread.sleep(200);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}

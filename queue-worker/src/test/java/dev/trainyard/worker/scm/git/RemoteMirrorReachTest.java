package dev.trainyard.worker.scm.git;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.trainyard.common.net.OutboundGuard;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tenant's git server cannot send the worker to an internal one (API.md §6): by a redirect, by
 * the dumb protocol's alternates, or by answering DNS differently after the check. Each case has an
 * "internal" server on loopback that must see no request, and a mirror whose fetch fails with a
 * sentence naming the rule, never what the internal server would have answered.
 */
@Timeout(60)
class RemoteMirrorReachTest {
  private static final String MISSING = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
  @TempDir Path dir;
  private HttpServer tenant;
  private HttpServer internal;
  private final List<String> internalSaw = new CopyOnWriteArrayList<>();
  private final List<String> tenantSaw = new CopyOnWriteArrayList<>();

  @BeforeEach
  void servers() throws IOException {
    internal = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    internal.createContext(
        "/",
        exchange -> {
          internalSaw.add(exchange.getRequestURI().toString());
          answer(exchange, 404, "text/plain", "internal secret");
        });
    internal.start();
    tenant = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    tenant.start();
  }

  @AfterEach
  void stop() {
    tenant.stop(0);
    internal.stop(0);
  }

  @Test
  void aRedirectIsNotFollowed() {
    tenant.createContext(
        "/",
        exchange -> {
          tenantSaw.add(exchange.getRequestURI().toString());
          exchange.getResponseHeaders().add("Location", internalUrl() + "/repo.git/info/refs");
          answer(exchange, 302, "text/plain", "");
        });

    assertThatThrownBy(() -> mirror(trusting()).sync())
        .hasMessageContaining("redirect")
        .hasMessageNotContaining("internal secret");
    assertThat(tenantSaw).hasSize(1);
    assertThat(internalSaw).isEmpty();
  }

  @Test
  void theDumbProtocolsAlternatesAreNotRead() {
    tenant.createContext(
        "/",
        exchange -> {
          tenantSaw.add(exchange.getRequestURI().toString());
          String path = exchange.getRequestURI().getPath();
          if (path.endsWith("/info/refs")) { // a dumb server: the refs without a service line
            answer(exchange, 200, "text/plain", MISSING + "\trefs/heads/main\n");
          } else if (path.endsWith("/objects/info/http-alternates")) {
            answer(exchange, 200, "text/plain", internalUrl() + "/objects\n");
          } else if (path.endsWith("/HEAD")) {
            answer(exchange, 200, "text/plain", "ref: refs/heads/main\n");
          } else {
            answer(exchange, 404, "text/plain", "");
          }
        });

    assertThatThrownBy(() -> mirror(trusting()).sync())
        .hasMessageContaining("smart HTTP protocol")
        .hasMessageNotContaining("internal secret");
    assertThat(internalSaw).isEmpty();
  }

  @Test
  void aNameAnsweredDifferentlyAfterTheCheckIsCheckedAgain() {
    tenant.createContext(
        "/",
        exchange -> {
          tenantSaw.add(exchange.getRequestURI().toString());
          answer(exchange, 404, "text/plain", "");
        });
    AtomicInteger lookups = new AtomicInteger();
    // the first answer passes the check, every later one names the internal server's address
    OutboundGuard rebinding =
        new OutboundGuard(
            OutboundGuard.Policy.gitRemotes(false, List.of()),
            host ->
                new InetAddress[] {
                  InetAddress.getByName(
                      lookups.getAndIncrement() == 0 ? "93.184.216.34" : "127.0.0.1")
                });

    assertThatThrownBy(() -> mirror(rebinding, internalUrl()).sync())
        .hasMessageContaining("loopback")
        .hasMessageNotContaining("internal secret");
    assertThat(lookups.get()).isGreaterThan(1);
    assertThat(internalSaw).isEmpty();
  }

  /** An error answer that never ends is read no further than its start, and the fetch fails. */
  @Test
  void anEndlessErrorAnswerDoesNotHoldTheWorker() {
    tenant.createContext(
        "/",
        exchange -> {
          tenantSaw.add(exchange.getRequestURI().toString());
          exchange.getResponseHeaders().add("Content-Type", "text/plain");
          exchange.sendResponseHeaders(404, 0); // chunked, no end
          byte[] drip = "x".repeat(1024).getBytes(StandardCharsets.UTF_8);
          try {
            while (true) {
              exchange.getResponseBody().write(drip);
              exchange.getResponseBody().flush();
              Thread.sleep(5);
            }
          } catch (IOException | InterruptedException e) {
            exchange.close(); // the worker hung up: what the test waits for
          }
        });
    long started = System.nanoTime();

    assertThatThrownBy(() -> mirror(trusting()).sync())
        .hasMessageContaining("could not be fetched");
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(20));
  }

  /**
   * Loopback allowed, as in the standalone: only the pinning stands between tenant and internal.
   */
  private static OutboundGuard trusting() {
    return OutboundGuard.resolving(OutboundGuard.Policy.gitRemotes(true, List.of()));
  }

  private RemoteMirror mirror(OutboundGuard guard) throws IOException {
    return mirror(guard, "http://localhost:" + tenant.getAddress().getPort());
  }

  private RemoteMirror mirror(OutboundGuard guard, String server) throws IOException {
    RemoteAccess access = new RemoteAccess(server + "/repo.git", null, null, null, null);
    return new RemoteMirror(dir.resolve("mirror.git"), access, guard, HostKeys.NONE);
  }

  /** Named {@code localhost}, so a client that resolves the name itself reaches loopback. */
  private String internalUrl() {
    return "http://localhost:" + internal.getAddress().getPort();
  }

  private static void answer(HttpExchange exchange, int status, String type, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", type);
    exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) {
      exchange.getResponseBody().write(bytes);
    }
    exchange.close();
  }
}

package dev.trainyard.cli.http;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real HTTP server on a local socket for each test, answering with the test's handler:
 * {@code @RegisterExtension final LocalServer server = new LocalServer(this::answer);}.
 */
public final class LocalServer implements BeforeEachCallback, AfterEachCallback {
  private final HttpHandler handler;
  private HttpServer server;

  public LocalServer(HttpHandler handler) {
    this.handler = handler;
  }

  @Override
  public void beforeEach(ExtensionContext context) throws Exception {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", handler);
    server.start();
  }

  @Override
  public void afterEach(ExtensionContext context) {
    server.stop(0);
  }

  /** Its address, as {@code http://127.0.0.1:<port>}. */
  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }
}

package dev.trainyard.standalone.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A git server over HTTP on loopback: git's own {@code git http-backend} (smart HTTP, fetch and
 * push) run as a CGI program for every request under {@code /git/}, behind basic authentication
 * with one user. Serves the bare repositories under {@code root}.
 */
public final class GitHttpServer implements AutoCloseable {
  private final HttpServer server;
  private final ExecutorService pool = Executors.newFixedThreadPool(4);
  private final Path root;
  private final String user;
  private final String password;

  public GitHttpServer(Path root, String user, String password) throws IOException {
    this.root = root;
    this.user = user;
    this.password = password;
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/git/", this::handle);
    server.setExecutor(pool);
    server.start();
  }

  /** The URL of {@code path} (relative to the root, e.g. {@code org/github.com/acme/x.git}). */
  public String url(String path) {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/git/" + path;
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String expected =
          "Basic "
              + Base64.getEncoder()
                  .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
      if (!expected.equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
        exchange.getResponseHeaders().add("WWW-Authenticate", "Basic realm=\"git\"");
        exchange.sendResponseHeaders(401, -1);
        return;
      }
      byte[] body = exchange.getRequestBody().readAllBytes();
      ProcessBuilder cgi = new ProcessBuilder("git", "http-backend");
      Map<String, String> env = cgi.environment();
      env.put("GIT_PROJECT_ROOT", root.toString());
      env.put("GIT_HTTP_EXPORT_ALL", "1");
      env.put("REMOTE_USER", user);
      env.put("REMOTE_ADDR", "127.0.0.1");
      env.put("REQUEST_METHOD", exchange.getRequestMethod());
      env.put("PATH_INFO", exchange.getRequestURI().getRawPath().substring("/git".length()));
      String query = exchange.getRequestURI().getRawQuery();
      env.put("QUERY_STRING", query == null ? "" : query);
      env.put("CONTENT_LENGTH", Integer.toString(body.length));
      copyHeader(exchange, "Content-Type", env, "CONTENT_TYPE");
      copyHeader(exchange, "Content-Encoding", env, "HTTP_CONTENT_ENCODING");
      copyHeader(exchange, "Git-Protocol", env, "HTTP_GIT_PROTOCOL");
      Process process = cgi.start();
      CompletableFuture<byte[]> out =
          CompletableFuture.supplyAsync(() -> readAll(process.getInputStream()));
      CompletableFuture.runAsync(() -> readAll(process.getErrorStream()));
      try (OutputStream in = process.getOutputStream()) {
        in.write(body);
      }
      byte[] response = out.join();
      process.waitFor(30, TimeUnit.SECONDS);
      respond(exchange, response);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Sends a CGI response: its headers (a {@code Status:} one sets the code), then the body. */
  private static void respond(HttpExchange exchange, byte[] cgi) throws IOException {
    int split = indexOf(cgi, "\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
    int skip = 4;
    if (split < 0) {
      split = indexOf(cgi, "\n\n".getBytes(StandardCharsets.US_ASCII));
      skip = 2;
    }
    int status = 200;
    for (String line : new String(cgi, 0, split, StandardCharsets.ISO_8859_1).split("\r?\n")) {
      int colon = line.indexOf(':');
      String name = line.substring(0, colon).trim();
      String value = line.substring(colon + 1).trim();
      if (name.equalsIgnoreCase("Status")) {
        status = Integer.parseInt(value.substring(0, 3));
      } else {
        exchange.getResponseHeaders().add(name, value);
      }
    }
    int length = cgi.length - split - skip;
    exchange.sendResponseHeaders(status, length == 0 ? -1 : length);
    if (length > 0) {
      exchange.getResponseBody().write(cgi, split + skip, length);
    }
  }

  private static void copyHeader(
      HttpExchange exchange, String header, Map<String, String> env, String variable) {
    String value = exchange.getRequestHeaders().getFirst(header);
    if (value != null) {
      env.put(variable, value);
    }
  }

  private static int indexOf(byte[] data, byte[] pattern) {
    outer:
    for (int i = 0; i + pattern.length <= data.length; i++) {
      for (int j = 0; j < pattern.length; j++) {
        if (data[i + j] != pattern[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  private static byte[] readAll(InputStream in) {
    try (in) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      in.transferTo(out);
      return out.toByteArray();
    } catch (IOException e) {
      return new byte[0];
    }
  }

  @Override
  public void close() {
    server.stop(0);
    pool.shutdownNow();
  }
}

package dev.trainyard.standalone.queue;

import dev.trainyard.standalone.support.GitHttpServer;
import java.nio.file.Path;
import java.util.Map;

/** The scenarios over HTTP with basic authentication ({@code git http-backend}). */
class RemoteHttpsMergeQueueIT extends RemoteMergeQueueIT {
  private GitHttpServer server;

  @Override
  protected AutoCloseable startServer() throws Exception {
    server = new GitHttpServer(served, "ci-bot", "s3cret-token");
    return server;
  }

  @Override
  protected Map<String, Object> remote(Path path) {
    return Map.of(
        "url",
        server.url(served.relativize(path).toString()),
        "username",
        "ci-bot",
        "password",
        "s3cret-token");
  }
}

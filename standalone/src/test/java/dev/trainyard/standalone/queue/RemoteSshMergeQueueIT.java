package dev.trainyard.standalone.queue;

import dev.trainyard.standalone.support.GitSshServer;
import java.nio.file.Path;
import java.util.Map;

/** The scenarios over SSH with a private key (Apache MINA sshd running git's pack commands). */
class RemoteSshMergeQueueIT extends RemoteMergeQueueIT {
  private GitSshServer server;

  @Override
  protected AutoCloseable startServer() throws Exception {
    server = new GitSshServer(served.resolve("host-key.ser"));
    return server;
  }

  @Override
  protected Map<String, Object> remote(Path path) {
    return Map.of("url", server.url(path), "privateKey", server.clientPrivateKey());
  }
}

package dev.trainyard.standalone.topology;

import dev.trainyard.standalone.infra.DocumentStore;
import dev.trainyard.standalone.infra.KafkaBroker;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * The broker or the store of the local cluster as a process of its own ({@code kafka <dir> <port>}
 * or {@code store <dir> <port>}): prints {@code READY} once it listens, stops on SIGTERM.
 */
final class Backend {
  private Backend() {}

  static void run(String kind, Path dir, int port) throws Exception {
    AutoCloseable backend =
        switch (kind) {
          case "kafka" -> KafkaBroker.start(dir, port, freePort());
          case "store" -> DocumentStore.onDisk(dir, port);
          default -> throw new IllegalArgumentException("unknown backend " + kind);
        };
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    backend.close();
                  } catch (Exception e) {
                    System.err.println(kind + ": " + e);
                  }
                  stopped.countDown();
                },
                kind + "-shutdown"));
    System.out.println("READY " + kind + " 127.0.0.1:" + port);
    stopped.await();
  }

  static int freePort() throws java.io.IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}

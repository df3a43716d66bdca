package dev.trainyard.standalone.topology;

import dev.trainyard.standalone.infra.DocumentStore;
import dev.trainyard.standalone.infra.FreePorts;
import dev.trainyard.standalone.infra.KafkaBroker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
          case "kafka" -> KafkaBroker.start(dir, port, controllerPort(dir));
          case "store" -> DocumentStore.onDisk(dir, port);
          default -> throw new IllegalArgumentException("unknown backend " + kind);
        };
    serve(kind, port, backend);
  }

  /** Node {@code id} of the KRaft cluster {@code quorum}, in this process. */
  static void runNode(Path dir, int id, List<KafkaBroker.Node> quorum, String clusterId)
      throws Exception {
    KafkaBroker.Node self = quorum.stream().filter(n -> n.id() == id).findFirst().orElseThrow();
    serve("kafka", self.port(), KafkaBroker.start(dir, self, quorum, clusterId));
  }

  private static void serve(String kind, int port, AutoCloseable backend) throws Exception {
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

  /**
   * The broker's controller port: chosen at the first start and kept in its folder, so a restarted
   * broker is the same KRaft voter as before (the local cluster restarts a killed broker).
   */
  private static int controllerPort(Path dir) throws IOException {
    Path remembered = dir.resolveSibling(dir.getFileName() + ".controller-port");
    if (Files.exists(remembered)) {
      return Integer.parseInt(Files.readString(remembered).strip());
    }
    int port = freePort();
    Files.createDirectories(dir.getParent());
    Files.writeString(remembered, Integer.toString(port));
    return port;
  }

  /** A port for a process of the local cluster to listen on ({@link FreePorts}). */
  static int freePort() {
    return FreePorts.next();
  }
}

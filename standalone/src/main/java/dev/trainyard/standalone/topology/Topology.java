package dev.trainyard.standalone.topology;

import dev.trainyard.standalone.infra.KafkaBroker;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The standalone jar's commands besides running everything in one process: {@code cluster [folder]}
 * ({@link LocalCluster}), and {@code kafka|store <folder> <port>}, the broker and the store as the
 * processes the local cluster starts.
 */
public final class Topology {
  private Topology() {}

  public static void main(String[] args) throws Exception {
    switch (args[0]) {
      case "cluster" -> LocalCluster.main(Arrays.copyOfRange(args, 1, args.length));
      case "kafka", "store" -> {
        if (args.length == 3) {
          Backend.run(args[0], Path.of(args[1]), Integer.parseInt(args[2]));
        } else if (args.length == 5 && args[0].equals("kafka")) {
          // one node of a cluster: kafka <folder> <node id> <id:port:controller,...> <cluster id>
          Backend.runNode(
              Path.of(args[1]),
              Integer.parseInt(args[2]),
              KafkaBroker.Node.parse(args[3]),
              args[4]);
        } else {
          usage();
        }
      }
      default -> usage();
    }
  }

  private static void usage() {
    System.err.println(
        "usage: java -jar trainyard-standalone.jar [cluster [folder] | github-app create --url <url> | kafka|store <folder> <port>"
            + " | kafka <folder> <node id> <id:port:controller-port,...> <cluster id>]"
            + " (no argument: everything in this process)");
    System.exit(2);
  }
}

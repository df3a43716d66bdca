package dev.trainyard.standalone.infra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports for a listener that binds later, often in another process. A port {@code new
 * ServerSocket(0)} picks is from the kernel's ephemeral range ({@code
 * /proc/sys/net/ipv4/ip_local_port_range}), where the kernel also takes the local ports of outgoing
 * connections: between the choice and the bind, any client on the machine could take it, and the
 * listener would not start ("Address already in use"; a local cluster's gateway once did not).
 * Below the range only a listener holds a port. Each candidate is bound once to see that it is
 * free, from a random start, and none is handed out twice by this process; without such a range
 * (not Linux, or one starting low) the kernel's choice it is, still never twice.
 */
public final class FreePorts {
  private static final int FROM = 10_000;
  private static final Set<Integer> HANDED = ConcurrentHashMap.newKeySet();

  private FreePorts() {}

  public static int next() {
    int low = ephemeralLow();
    if (low - FROM >= 1_000) {
      int span = low - FROM;
      int start = ThreadLocalRandom.current().nextInt(span);
      for (int i = 0; i < span; i++) {
        int port = FROM + (start + i) % span;
        if (!HANDED.contains(port) && bindable(port) && HANDED.add(port)) {
          return port;
        }
      }
    }
    for (int attempt = 0; ; attempt++) {
      try (ServerSocket socket = new ServerSocket(0)) {
        if (HANDED.add(socket.getLocalPort()) || attempt >= 100) {
          return socket.getLocalPort();
        }
      } catch (IOException e) {
        throw new UncheckedIOException("no free port", e);
      }
    }
  }

  private static boolean bindable(int port) {
    try (ServerSocket socket = new ServerSocket()) {
      socket.bind(new InetSocketAddress(port));
      return true;
    } catch (IOException taken) {
      return false;
    }
  }

  private static int ephemeralLow() {
    try {
      String range = Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).strip();
      return Integer.parseInt(range.split("\\s+")[0]);
    } catch (IOException | RuntimeException unknown) {
      return 0;
    }
  }
}

package dev.trainyard.standalone.infra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
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
 *
 * <p>Processes picking ports at once (the test suites' two JVMs, and the stacks and clusters they
 * start) are kept apart when {@code TRAINYARD_PORT_CLAIMS} names a directory: a port is handed out
 * only by the process that creates its file there first, and a claim older than {@link #CLAIM_HELD}
 * is taken for a port long bound or let go.
 */
public final class FreePorts {
  private static final int FROM = 10_000;
  private static final Set<Integer> HANDED = ConcurrentHashMap.newKeySet();
  static final Duration CLAIM_HELD = Duration.ofMinutes(10);
  private static final Path CLAIMS =
      Optional.ofNullable(System.getenv("TRAINYARD_PORT_CLAIMS"))
          .filter(dir -> !dir.isBlank())
          .map(Path::of)
          .orElse(null);

  private FreePorts() {}

  public static int next() {
    int low = ephemeralLow();
    if (low - FROM >= 1_000) {
      int span = low - FROM;
      int start = ThreadLocalRandom.current().nextInt(span);
      for (int i = 0; i < span; i++) {
        int port = FROM + (start + i) % span;
        if (!HANDED.contains(port) && bindable(port) && claimed(CLAIMS, port) && HANDED.add(port)) {
          return port;
        }
      }
    }
    for (int attempt = 0; ; attempt++) {
      try (ServerSocket socket = new ServerSocket(0)) {
        int port = socket.getLocalPort();
        if ((claimed(CLAIMS, port) && HANDED.add(port)) || attempt >= 100) {
          return port;
        }
      } catch (IOException e) {
        throw new UncheckedIOException("no free port", e);
      }
    }
  }

  /**
   * Whether this process may hand out {@code port}: always without a claims directory; else when no
   * claim younger than {@link #CLAIM_HELD} is there, and then it is claimed. The directory's lock
   * file makes the check and the claim one step for every process (and this method for every thread
   * of this one).
   */
  static synchronized boolean claimed(Path claims, int port) {
    if (claims == null) {
      return true;
    }
    Path claim = claims.resolve(Integer.toString(port));
    try {
      Files.createDirectories(claims);
      try (FileChannel lockFile =
              FileChannel.open(
                  claims.resolve(".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
          FileLock held = lockFile.lock()) {
        Instant now = Instant.now();
        if (Files.exists(claim)
            && Files.getLastModifiedTime(claim).toInstant().isAfter(now.minus(CLAIM_HELD))) {
          return false;
        }
        Files.write(claim, new byte[0]);
        Files.setLastModifiedTime(claim, FileTime.from(now));
        return true;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot claim port " + port + " in " + claims, e);
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

package dev.trainyard.standalone.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The local cluster's ports: each free when chosen and handed out once. (Where they come from,
 * below the kernel's ephemeral range, is FreePorts' choice on Linux; one CI run got the kernel's
 * ports instead, for a reason not found, and those must be distinct all the same.)
 */
class FreePortTest {

  @Test
  void portsAreFreeAndHandedOutOnce() throws Exception {
    Set<Integer> seen = new HashSet<>();
    for (int i = 0; i < 50; i++) {
      int port = Backend.freePort();
      assertThat(seen.add(port)).as("port %d handed out twice", port).isTrue();
      try (ServerSocket socket = new ServerSocket()) {
        socket.bind(new InetSocketAddress(port));
      }
    }
  }
}

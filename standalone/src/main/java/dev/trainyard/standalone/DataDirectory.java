package dev.trainyard.standalone;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Properties;
import java.util.function.Supplier;

/**
 * What the standalone run remembers in its data directory besides the data: ports chosen at the
 * first start ({@code 0} = any free port) and generated credentials, so a restart on the same data
 * finds its broker again and keeps its tokens.
 */
final class DataDirectory {
  private final Path root;
  private final Properties remembered = new Properties();

  DataDirectory(Path root) throws IOException {
    this.root = root;
    Files.createDirectories(root);
    if (Files.exists(file())) {
      try (Reader in = Files.newBufferedReader(file())) {
        remembered.load(in);
      }
    }
  }

  Path resolve(String child) {
    return root.resolve(child);
  }

  /** The configured port, or for {@code 0} the one chosen before (else a free one, remembered). */
  int port(String name, int configured) throws IOException {
    if (configured != 0) {
      return configured;
    }
    return Integer.parseInt(remember(name, () -> Integer.toString(freePort())));
  }

  /** The configured secret, or the one generated before (else a new one, remembered). */
  String secret(String name, String configured, Supplier<String> generate) throws IOException {
    return configured != null && !configured.isEmpty() ? configured : remember(name, generate);
  }

  private String remember(String name, Supplier<String> create) throws IOException {
    String value = remembered.getProperty(name);
    if (value == null) {
      value = create.get();
      remembered.setProperty(name, value);
      try (Writer out = Files.newBufferedWriter(file())) {
        remembered.store(out, "trainyard standalone: chosen ports and generated credentials");
      }
      try {
        Files.setPosixFilePermissions(file(), PosixFilePermissions.fromString("rw-------"));
      } catch (UnsupportedOperationException e) {
        // not a POSIX file system: the file keeps its default permissions
      }
    }
    return value;
  }

  private Path file() {
    return root.resolve("standalone.properties");
  }

  static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException("no free port", e);
    }
  }
}

package dev.trainyard.standalone;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Properties;
import java.util.Set;
import java.util.function.Supplier;

/**
 * What the standalone run remembers in its data directory besides the data: ports chosen at the
 * first start ({@code 0} = any free port) and generated credentials, so a restart on the same data
 * finds its broker again and keeps its tokens.
 */
final class DataDirectory {
  static final String FILE = "standalone.properties";
  private final Path root;
  private final Properties remembered = new Properties();

  /** Where a secret came from: only one generated at this start may be printed. */
  enum Origin {
    GIVEN,
    GENERATED_NOW,
    REMEMBERED
  }

  /** A secret and where it came from. */
  record Secret(String value, Origin origin) {}

  DataDirectory(Path root) throws IOException {
    this.root = root;
    if (!Files.isDirectory(root)) {
      // the data holds tokens and keys: readable by its owner only, from the start
      createOwnerOnly(root, "rwx------", Files::createDirectories);
    }
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
  Secret secret(String name, String configured, Supplier<String> generate) throws IOException {
    if (configured != null && !configured.isEmpty()) {
      return new Secret(configured, Origin.GIVEN);
    }
    String known = remembered.getProperty(name);
    return known != null
        ? new Secret(known, Origin.REMEMBERED)
        : new Secret(remember(name, generate), Origin.GENERATED_NOW);
  }

  private String remember(String name, Supplier<String> create) throws IOException {
    String value = remembered.getProperty(name);
    if (value == null) {
      value = create.get();
      remembered.setProperty(name, value);
      store();
    }
    return value;
  }

  /**
   * Writes the file owner-only from its first byte: a new file created 0600, then moved over the
   * old one, so no reader ever sees it with wider permissions or half written.
   */
  private void store() throws IOException {
    Path next = root.resolve(FILE + ".next");
    Files.deleteIfExists(next);
    createOwnerOnly(next, "rw-------", Files::createFile);
    try (Writer out = Files.newBufferedWriter(next)) {
      remembered.store(out, "trainyard standalone: chosen ports and generated credentials");
    }
    Files.move(next, file(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /** How a path is created with attributes ({@code Files::createFile}, …). */
  private interface Creator {
    void create(Path path, FileAttribute<?>... attributes) throws IOException;
  }

  private static void createOwnerOnly(Path path, String permissions, Creator creator)
      throws IOException {
    Set<PosixFilePermission> owner = PosixFilePermissions.fromString(permissions);
    try {
      creator.create(path, PosixFilePermissions.asFileAttribute(owner));
    } catch (UnsupportedOperationException e) {
      creator.create(path); // not a POSIX file system: its own defaults apply
    }
  }

  Path file() {
    return root.resolve(FILE);
  }

  static int freePort() {
    return dev.trainyard.standalone.infra.FreePorts.next();
  }
}

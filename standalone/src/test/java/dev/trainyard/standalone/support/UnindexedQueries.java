package dev.trainyard.standalone.support;

import dev.trainyard.standalone.infra.DocumentStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The shapes of the queries no index served, collected from every embedded store of a test run:
 * into the file {@code TRAINYARD_TEST_UNINDEXED_QUERIES} names, once each, when it is set (to
 * survey a whole suite), and into {@link #seen} always.
 */
public final class UnindexedQueries {
  private static final Set<String> SEEN = ConcurrentHashMap.newKeySet();
  private static final String FILE = System.getenv("TRAINYARD_TEST_UNINDEXED_QUERIES");

  private UnindexedQueries() {}

  static void recordTo(DocumentStore store) {
    store.onUnindexedQuery(UnindexedQueries::seen);
  }

  private static void seen(String shape) {
    if (SEEN.add(shape) && FILE != null) {
      try {
        Files.writeString(
            Path.of(FILE),
            shape + "\n",
            StandardCharsets.UTF_8,
            StandardOpenOption.CREATE,
            StandardOpenOption.APPEND);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** Every shape seen so far in this JVM. */
  public static Set<String> seen() {
    return Set.copyOf(SEEN);
  }
}

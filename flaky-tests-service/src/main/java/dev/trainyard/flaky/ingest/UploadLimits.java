package dev.trainyard.flaky.ingest;

import dev.trainyard.common.json.StrictJson;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * What one upload may hold, counted across all its files while they are parsed, so that memory, the
 * write time (the gateway gives an upload 2 minutes; the module README relates the case limit to
 * the measured ingestion rate) and every stored document stay bounded:
 *
 * <ul>
 *   <li>at most {@value #MAX_TEST_CASES} test cases (400 naming the limit: split the results into
 *       several uploads);
 *   <li>a name, classname, file path or suite name of at most {@value #MAX_ATTRIBUTE} characters
 *       (400 naming the file and line);
 *   <li>names, classnames and paths of at most {@value #MAX_IDENTITY_TEXT} characters together
 *       (400);
 *   <li>failure messages cut to {@value JunitXmlParser#MAX_MESSAGE} characters each and {@value
 *       #MAX_MESSAGE_TEXT} together — beyond that, messages are dropped, never the results.
 * </ul>
 *
 * One instance per upload; not thread-safe (the files of an upload are read one after another).
 */
public final class UploadLimits {
  public static final int MAX_TEST_CASES = 50_000;
  public static final int MAX_ATTRIBUTE = 4096;
  public static final int MAX_IDENTITY_TEXT = 32 * 1024 * 1024;
  public static final int MAX_MESSAGE_TEXT = 16 * 1024 * 1024;

  /** How many skipped test cases an answer names, one line each; the rest are only counted. */
  public static final int NAMED_SKIPS = 20;

  private int testCases;
  private long identityText;
  private long messageText;
  private final List<String> skipped = new ArrayList<>();
  private int skippedSinceTaken;
  private Instant started;

  /** Counts a {@code <testcase>} that starts at {@code line}; refuses one beyond the limit. */
  void testCase(String fileName, int line) throws MalformedReportException {
    if (++testCases > MAX_TEST_CASES) {
      throw new MalformedReportException(
          fileName,
          line,
          "the upload holds more than "
              + MAX_TEST_CASES
              + " test cases (the limit per upload); split the results into several uploads");
    }
  }

  /** {@code value} if it is within the limits (null stays null). */
  String attribute(String fileName, int line, String what, String value)
      throws MalformedReportException {
    if (value == null) {
      return null;
    }
    if (value.length() > MAX_ATTRIBUTE) {
      throw new MalformedReportException(
          fileName,
          line,
          what + " is " + value.length() + " characters long (at most " + MAX_ATTRIBUTE + ")");
    }
    identityText += value.length();
    if (identityText > MAX_IDENTITY_TEXT) {
      throw new MalformedReportException(
          fileName,
          line,
          "the test names, classnames and paths of the upload exceed "
              + MAX_IDENTITY_TEXT
              + " characters; split the results into several uploads");
    }
    return value;
  }

  /** Notes a {@code <testcase>} at {@code line} that is not kept, and why. */
  void skip(String fileName, int line, String why) {
    skippedSinceTaken++;
    if (skipped.size() < NAMED_SKIPS) {
      skipped.add(fileName + ":" + line + ": " + why);
    }
  }

  /**
   * The test cases skipped since the last call: how many, and the first {@value #NAMED_SKIPS} of
   * the upload named.
   */
  Skipped takeSkipped() {
    Skipped taken = new Skipped(skippedSinceTaken, List.copyOf(skipped));
    skippedSinceTaken = 0;
    skipped.clear();
    return taken;
  }

  /**
   * Notes a {@code <testsuite timestamp>} of the file being read: producers write ISO-8601 with a
   * zone (pytest, gotestsum) or without one (Surefire, jest-junit: taken as UTC, what CI runners
   * use). One that does not parse is ignored: it only orders runs, it never refuses a report.
   */
  private LocalDateTime startedLocal;

  private final java.util.TreeMap<String, String> configuration = new java.util.TreeMap<>();

  /**
   * The suite properties that say where a report's tests ran — a JVM's version, an interpreter's,
   * an operating system and architecture — and so tell a CI matrix's jobs apart. Anything else a
   * producer writes there (paths, hostnames, timestamps, the command line) changes from run to run
   * of one configuration and is not read.
   */
  static final java.util.Set<String> CONFIGURATION_PROPERTIES =
      java.util.Set.of(
          "java.version",
          "java.specification.version",
          "os.name",
          "os.arch",
          "python",
          "python_version",
          "Python",
          "python.version",
          "node.version",
          "node_version",
          "go.version",
          "platform");

  /** A property of the suite being read ({@code <properties><property name value/>}). */
  void suiteProperty(String name, String value) {
    if (name != null
        && value != null
        && CONFIGURATION_PROPERTIES.contains(name)
        && value.length() <= StrictJson.MAX_NAME) {
      configuration.putIfAbsent(name, value.strip());
    }
  }

  /**
   * Where the file's tests ran by its suite properties, as {@code name=value} pairs in name order
   * ({@code java.specification.version=17, os.name=Linux}); null when none said. Taken once per
   * file.
   */
  String takeConfiguration() {
    if (configuration.isEmpty()) {
      return null;
    }
    StringBuilder out = new StringBuilder();
    configuration.forEach(
        (k, v) -> out.append(out.isEmpty() ? "" : ", ").append(k).append('=').append(v));
    configuration.clear();
    return out.toString();
  }

  void suiteStarted(String timestamp) {
    if (timestamp == null || timestamp.isBlank()) {
      return;
    }
    try {
      Instant at = OffsetDateTime.parse(timestamp.strip()).toInstant();
      if (started == null || at.isBefore(started)) {
        started = at;
      }
    } catch (DateTimeParseException withoutZone) {
      try {
        // Surefire, pytest and most producers write the runner's local time without a zone
        LocalDateTime at = LocalDateTime.parse(timestamp.strip());
        if (startedLocal == null || at.isBefore(startedLocal)) {
          startedLocal = at;
        }
      } catch (DateTimeParseException e) {
        // not a time: the upload's own time orders the run
      }
    }
  }

  /** The earliest suite start with a zone of the file read since the last call; null: none. */
  Instant takeStarted() {
    Instant taken = started;
    started = null;
    return taken;
  }

  /** The earliest suite start without a zone since the last call; null: none. */
  LocalDateTime takeStartedLocal() {
    LocalDateTime taken = startedLocal;
    startedLocal = null;
    return taken;
  }

  /** Test cases of a file that were not kept: how many, and a line naming each of the first. */
  public record Skipped(int count, List<String> named) {
    public static final Skipped NONE = new Skipped(0, List.of());
  }

  /** {@code message} if the upload's budget for messages still has room, else null. */
  String message(String message) {
    if (message == null || messageText + message.length() > MAX_MESSAGE_TEXT) {
      return null;
    }
    messageText += message.length();
    return message;
  }
}

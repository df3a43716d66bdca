package dev.trainyard.flaky.ingest;

import javax.xml.stream.XMLStreamReader;

/** One {@code <testcase>} as it is read: its attributes, then what its children say. */
final class TestCaseBuilder {
  /**
   * The name of a class's setup as a test of its own: Surefire writes a failing
   * {@code @BeforeAll}/{@code @BeforeClass} as a {@code <testcase name="">} of the class.
   */
  static final String CLASS_SETUP = "(class setup)";

  /**
   * The name of a suite's own failure, an {@code <error>} or {@code <failure>} outside testcases.
   */
  static final String SUITE_SETUP = "(suite setup)";

  private final String parent;
  private final String classname;
  private final String name;
  private final String filePath;
  private final long durationMillis;
  private boolean failed;
  private boolean skipped;
  private int failedAttempts;
  private int flakyAttempts;
  private String message;
  private StringBuilder text;

  private TestCaseBuilder(
      String parent, String classname, String name, String filePath, long durationMillis) {
    this.parent = parent;
    this.classname = classname;
    this.name = name;
    this.filePath = filePath;
    this.durationMillis = durationMillis;
  }

  /**
   * The test case starting at {@code line}; null (noted in {@code limits} as skipped) when it has
   * neither a name nor a classname to be known by. A nameless one of a class is the class's setup.
   */
  static TestCaseBuilder start(
      String fileName, int line, XMLStreamReader xml, String parent, UploadLimits limits)
      throws MalformedReportException {
    String name = JunitXmlParser.attribute(xml, "name", null);
    String classname =
        limits.attribute(
            fileName,
            line,
            "a <testcase> classname",
            JunitXmlParser.attribute(xml, "classname", null));
    if (name == null || name.isBlank()) {
      if (classname == null || classname.isBlank()) {
        limits.skip(fileName, line, "a <testcase> with neither a name nor a classname");
        return null;
      }
      name = CLASS_SETUP;
    }
    limits.attribute(fileName, line, "a <testcase> name", name);
    String file =
        limits.attribute(
            fileName, line, "a <testcase> file", JunitXmlParser.attribute(xml, "file", null));
    String time = JunitXmlParser.attribute(xml, "time", null);
    return new TestCaseBuilder(
        parent == null || parent.isEmpty() ? null : parent,
        classname == null || classname.isEmpty() ? null : classname,
        name,
        file == null || file.isEmpty() ? null : file,
        millis(fileName, line, time));
  }

  /**
   * The failure a suite reports outside any test case, as a test of the suite (of the report's file
   * when the suite has no name).
   */
  static TestCaseBuilder suite(String suite, String fileName) {
    String name = suite == null || suite.isEmpty() ? fileName : suite;
    return new TestCaseBuilder(name, name, SUITE_SETUP, null, 0);
  }

  void child(String element, XMLStreamReader xml) {
    switch (element) {
      case "failure", "error" -> {
        failed = true;
        failedAttempts++;
        note(xml);
      }
      case "rerunFailure", "rerunError" -> {
        failedAttempts++;
        note(xml);
      }
      case "flakyFailure", "flakyError" -> {
        flakyAttempts++;
        failedAttempts++;
        note(xml);
      }
      case "skipped" -> skipped = true;
      default -> {
        // system-out, system-err, properties: not kept
      }
    }
  }

  void text(String chunk) {
    if (text != null && text.length() < JunitXmlParser.MAX_MESSAGE) {
      text.append(chunk, 0, Math.min(chunk.length(), JunitXmlParser.MAX_MESSAGE - text.length()));
    }
  }

  void endChild() {
    if (text != null && message == null && !text.toString().isBlank()) {
      message = text.toString().strip();
    }
    text = null;
  }

  TestCaseResult build(UploadLimits limits) {
    Outcome outcome =
        failed
            ? Outcome.FAILED
            : skipped
                ? Outcome.SKIPPED
                : flakyAttempts > 0 ? Outcome.PASSED_ON_RETRY : Outcome.PASSED;
    return new TestCaseResult(
        parent,
        classname,
        VolatileValues.normalised(name),
        filePath,
        outcome,
        durationMillis,
        failedAttempts,
        limits.message(message));
  }

  /** The failure's message attribute, else (at its end) its text. */
  private void note(XMLStreamReader xml) {
    String attr = JunitXmlParser.attribute(xml, "message", null);
    if (message == null && attr != null && !attr.isBlank()) {
      message = cut(attr);
    }
    text = message == null ? new StringBuilder() : null;
  }

  private static String cut(String value) {
    return value.length() <= JunitXmlParser.MAX_MESSAGE
        ? value
        : value.substring(0, JunitXmlParser.MAX_MESSAGE);
  }

  /**
   * Seconds as producers write them: {@code 0.012}, {@code 0,012} (Surefire in a decimal-comma
   * locale), {@code 1,234.5} (a thousands separator); a missing time is 0.
   */
  static long millis(String fileName, int line, String time) throws MalformedReportException {
    if (time == null || time.isBlank()) {
      return 0;
    }
    String normal = time.trim();
    normal = normal.contains(".") ? normal.replace(",", "") : normal.replace(',', '.');
    try {
      double seconds = Double.parseDouble(normal);
      if (seconds < 0 || Double.isNaN(seconds) || Double.isInfinite(seconds)) {
        throw new NumberFormatException();
      }
      return Math.round(seconds * 1000);
    } catch (NumberFormatException e) {
      throw new MalformedReportException(fileName, line, "time=\"" + time + "\" is not a duration");
    }
  }
}

package dev.trainyard.standalone.flaky;

import java.util.List;

/** JUnit XML as the producers write it, built for a test's needs. */
public final class Reports {
  private Reports() {}

  /**
   * A Surefire report of {@code classname}: each entry {@code name:P|F|R|S|E}; {@code ":E"} is a
   * failed class setup as Surefire writes it (a nameless test case with an error).
   */
  public static String surefire(String classname, List<String> cases) {
    StringBuilder xml =
        new StringBuilder(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\""
                + classname
                + "\" tests=\""
                + cases.size()
                + "\">\n");
    for (String c : cases) {
      String name = c.substring(0, c.lastIndexOf(':'));
      char outcome = c.charAt(c.length() - 1);
      xml.append("  <testcase name=\"")
          .append(name)
          .append("\" classname=\"")
          .append(classname)
          .append("\" time=\"0,012\"");
      switch (outcome) {
        case 'F' ->
            xml.append(
                "><failure message=\"expected: &lt;0&gt; but was: &lt;1&gt;\""
                    + " type=\"org.opentest4j.AssertionFailedError\">at Sum.java:12</failure></testcase>\n");
        case 'R' ->
            xml.append(
                "><flakyFailure message=\"timeout\" type=\"java.net.SocketTimeoutException\">"
                    + "<stackTrace>at Net.java:1</stackTrace></flakyFailure></testcase>\n");
        case 'S' -> xml.append("><skipped/></testcase>\n");
        case 'E' ->
            xml.append(
                "><error message=\"no database at localhost:5432\""
                    + " type=\"java.lang.IllegalStateException\">at Ledger.java:11</error></testcase>\n");
        default -> xml.append("/>\n");
      }
    }
    return xml.append("</testsuite>\n").toString();
  }

  /** A pytest (xunit1) report naming the file: each entry {@code name:P|F}. */
  public static String pytest(String file, List<String> cases) {
    String classname = file.replace(".py", "").replace('/', '.');
    StringBuilder xml =
        new StringBuilder(
            "<?xml version=\"1.0\" encoding=\"utf-8\"?><testsuites><testsuite name=\"pytest\""
                + " errors=\"0\" failures=\"0\" skipped=\"0\" tests=\""
                + cases.size()
                + "\">");
    for (String c : cases) {
      String name = c.substring(0, c.lastIndexOf(':'));
      boolean failed = c.endsWith(":F");
      xml.append("<testcase classname=\"")
          .append(classname)
          .append("\" name=\"")
          .append(name)
          .append("\" file=\"")
          .append(file)
          .append("\" line=\"3\" time=\"0.001\"");
      xml.append(
          failed
              ? "><failure message=\"assert 1 == 2\">def test(): assert 1 == 2</failure></testcase>"
              : " />");
    }
    return xml.append("</testsuite></testsuites>").toString();
  }

  static final String XXE =
      "<?xml version=\"1.0\"?>\n<!DOCTYPE testsuite [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>\n"
          + "<testsuite name=\"x\"><testcase name=\"&xxe;\"/></testsuite>\n";

  static final String BILLION_LAUGHS =
      "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n <!ENTITY lol \"lol\">\n"
          + " <!ENTITY lol2 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">\n"
          + " <!ENTITY lol3 \"&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;\">\n]>\n"
          + "<testsuite name=\"x\"><testcase name=\"&lol3;\"/></testsuite>\n";

  static final String TRUNCATED =
      "<?xml version=\"1.0\"?>\n<testsuite name=\"x\">\n  <testcase name=\"a\"/>\n  <testcase name=\"b\">\n";
}

package dev.trainyard.flaky.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Reports as the producers write them, and reports written to hurt. */
class JunitXmlParserTest {
  private final JunitXmlParser parser = new JunitXmlParser();

  @Test
  void surefireWithRerunsAndDecimalCommas() throws Exception {
    List<TestCaseResult> results = parse("surefire.xml");

    assertThat(results)
        .extracting(TestCaseResult::name, TestCaseResult::outcome, TestCaseResult::failedAttempts)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("addsOneAndOne", Outcome.PASSED, 0),
            org.assertj.core.groups.Tuple.tuple("overflows", Outcome.FAILED, 1),
            org.assertj.core.groups.Tuple.tuple("talksToNetwork", Outcome.PASSED_ON_RETRY, 1),
            org.assertj.core.groups.Tuple.tuple("ignoredOne", Outcome.SKIPPED, 0),
            org.assertj.core.groups.Tuple.tuple("alwaysBroken", Outcome.FAILED, 3));
    assertThat(results.get(0).durationMillis()).isEqualTo(12);
    assertThat(results.get(2).durationMillis()).isEqualTo(1_002_500);
    assertThat(results.get(1).message()).isEqualTo("expected: <0> but was: <-1>");
    assertThat(results.get(1).classname()).isEqualTo("com.acme.SumTest");
    assertThat(results.get(1).parent()).isEqualTo("com.acme.SumTest");
    assertThat(results.get(1).filePath()).isNull();
  }

  @Test
  void aClassWhoseSetupFailedIsATestOfTheClass() throws Exception {
    // as Surefire 3.5.6 writes a failing @BeforeAll: <testcase name="" classname="…"> with <error>
    List<TestCaseResult> results = parse("surefire-beforeall.xml");

    assertThat(results).hasSize(1);
    TestCaseResult setup = results.get(0);
    assertThat(setup.name()).isEqualTo("(class setup)");
    assertThat(setup.classname()).isEqualTo("com.acme.LedgerTest");
    assertThat(setup.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(setup.message()).isEqualTo("no database at localhost:5432");
  }

  @Test
  void aSuitesOwnErrorIsATestOfTheSuiteAndItsTestCasesStay() throws Exception {
    String xml =
        "<testsuites><testsuite name=\"tests.integration\">"
            + "<error message=\"ImportError: no module named db\">trace</error>"
            + "<testcase classname=\"tests.integration\" name=\"test_reads\"/>"
            + "</testsuite></testsuites>";

    List<TestCaseResult> results = parser.parse("pytest.xml", stream(xml));

    assertThat(results)
        .extracting(TestCaseResult::classname, TestCaseResult::name, TestCaseResult::outcome)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "tests.integration", "(suite setup)", Outcome.FAILED),
            org.assertj.core.groups.Tuple.tuple("tests.integration", "test_reads", Outcome.PASSED));
    assertThat(results.get(0).message()).isEqualTo("ImportError: no module named db");
  }

  @Test
  void aTestCaseWithNeitherNameNorClassnameIsSkippedAndNamedNotARefusal() throws Exception {
    String xml =
        "<testsuite>\n<testcase name=\"\"><error message=\"?\"/></testcase>\n"
            + "<testcase name=\"kept\"/>\n</testsuite>";
    UploadLimits limits = new UploadLimits();

    List<TestCaseResult> results = parser.parse("odd.xml", stream(xml), limits);

    assertThat(results).extracting(TestCaseResult::name).containsExactly("kept");
    UploadLimits.Skipped skipped = limits.takeSkipped();
    assertThat(skipped.count()).isEqualTo(1);
    assertThat(skipped.named())
        .containsExactly("odd.xml:2: a <testcase> with neither a name nor a classname");
    assertThat(limits.takeSkipped()).isEqualTo(UploadLimits.Skipped.NONE);
  }

  @Test
  void pytestXunit1NamesTheFile() throws Exception {
    List<TestCaseResult> results = parse("pytest-xunit1.xml");

    assertThat(results).hasSize(2);
    assertThat(results.get(1).name()).isEqualTo("test_divides[0-1]");
    assertThat(results.get(1).filePath()).isEqualTo("tests/test_sum.py");
    assertThat(results.get(1).classname()).isEqualTo("tests.test_sum");
    assertThat(results.get(1).outcome()).isEqualTo(Outcome.FAILED);
    assertThat(results.get(1).message()).isEqualTo("ZeroDivisionError: division by zero");
  }

  @Test
  void pytestXunit2ErrorsAndSkips() throws Exception {
    List<TestCaseResult> results = parse("pytest-xunit2.xml");

    assertThat(results)
        .extracting(TestCaseResult::outcome)
        .containsExactly(Outcome.PASSED, Outcome.SKIPPED, Outcome.FAILED);
    assertThat(results.get(2).message())
        .startsWith("failed on setup with \"ConnectionRefusedError");
    assertThat(results).allSatisfy(r -> assertThat(r.filePath()).isNull());
  }

  @Test
  void jestJunitTakesTheFailureText() throws Exception {
    List<TestCaseResult> results = parse("jest-junit.xml");

    assertThat(results.get(0).name()).isEqualTo("adds 1 + 1 to equal 2");
    assertThat(results.get(0).parent()).isEqualTo("sums some nums");
    assertThat(results.get(0).filePath()).isEqualTo("src/sum.test.ts");
    assertThat(results.get(1).outcome()).isEqualTo(Outcome.FAILED);
    assertThat(results.get(1).message()).startsWith("Error: expect(received).toBe(expected)");
    assertThat(results.get(2).outcome()).isEqualTo(Outcome.SKIPPED);
  }

  @Test
  void gotestsumSubtests() throws Exception {
    List<TestCaseResult> results = parse("gotestsum.xml");

    assertThat(results)
        .extracting(TestCaseResult::name, TestCaseResult::outcome)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("TestAdd", Outcome.PASSED),
            org.assertj.core.groups.Tuple.tuple("TestAdd/negatives", Outcome.FAILED),
            org.assertj.core.groups.Tuple.tuple("TestSkip", Outcome.SKIPPED));
    assertThat(results.get(1).parent()).isEqualTo("github.com/acme/rocket/sum");
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource({
    "xxe.xml, line 2: DTDs are not allowed",
    "billion-laughs.xml, DTDs are not allowed",
    "truncated.xml, truncated.xml line 6: not well-formed XML"
  })
  void hostileAndBrokenFilesAreRefusedWithFileAndLine(String file, String expected) {
    assertThatThrownBy(() -> parse(file))
        .isInstanceOf(MalformedReportException.class)
        .hasMessageContaining(file)
        .hasMessageContaining(expected);
  }

  @Test
  void nestingBeyondTheLimitIsRefused() {
    String deep =
        "<testsuites>"
            + "<testsuite name=\"s\">".repeat(JunitXmlParser.MAX_DEPTH)
            + "</testsuite>".repeat(JunitXmlParser.MAX_DEPTH)
            + "</testsuites>";

    assertThatThrownBy(() -> parser.parse("deep.xml", stream(deep)))
        .hasMessageContaining("deeper than 64");
  }

  @ParameterizedTest(name = "{1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "<html><body/></html>|not a JUnit XML report (the root is <html>)",
        "<testsuite><testcase name=\"t\" time=\"soon\"/></testsuite>|time=\"soon\" is not a duration",
        "|the file is empty"
      })
  void whatIsNotAReportSaysWhy(String xml, String expected) {
    assertThatThrownBy(() -> parser.parse("upload.xml", stream(xml == null ? "" : xml)))
        .hasMessageContaining("upload.xml")
        .hasMessageContaining(expected);
  }

  @Test
  void longFailureMessagesAreCut() throws Exception {
    String xml =
        "<testsuite><testcase name=\"t\"><failure>"
            + "x".repeat(3 * JunitXmlParser.MAX_MESSAGE)
            + "</failure></testcase></testsuite>";

    TestCaseResult result = parser.parse("long.xml", stream(xml)).get(0);

    assertThat(result.message()).hasSize(JunitXmlParser.MAX_MESSAGE);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "a <testcase> name|<testsuite>%n<testcase name=\"%s\"/></testsuite>",
        "a <testcase> classname|<testsuite>%n<testcase name=\"t\" classname=\"%s\"/></testsuite>",
        "a <testcase> file|<testsuite>%n<testcase name=\"t\" file=\"%s\"/></testsuite>",
        "a <testsuite> name|<testsuites>%n<testsuite name=\"%s\"><testcase name=\"t\"/></testsuite></testsuites>"
      })
  void identityAttributesLongerThanTheCapAreRefusedWithFileAndLine(String what, String template)
      throws Exception {
    String atCap = template.formatted("a".repeat(UploadLimits.MAX_ATTRIBUTE));
    String overCap = template.formatted("a".repeat(UploadLimits.MAX_ATTRIBUTE + 1));

    assertThat(parser.parse("ok.xml", stream(atCap))).hasSize(1);
    assertThatThrownBy(() -> parser.parse("huge.xml", stream(overCap)))
        .isInstanceOf(MalformedReportException.class)
        .hasMessage(
            "huge.xml line 2: "
                + what
                + " is "
                + (UploadLimits.MAX_ATTRIBUTE + 1)
                + " characters long (at most "
                + UploadLimits.MAX_ATTRIBUTE
                + ")");
  }

  @Test
  void anUploadHoldsAtMostTheCappedNumberOfTestCasesAcrossItsFiles() throws Exception {
    UploadLimits limits = new UploadLimits();
    int half = UploadLimits.MAX_TEST_CASES / 2;

    assertThat(parser.parse("a.xml", stream(cases(half)), limits)).hasSize(half);
    assertThat(parser.parse("b.xml", stream(cases(half)), limits)).hasSize(half);
    assertThatThrownBy(() -> parser.parse("c.xml", stream(cases(1)), limits))
        .isInstanceOf(MalformedReportException.class)
        .hasMessage(
            "c.xml line 1: the upload holds more than 50000 test cases (the limit per upload);"
                + " split the results into several uploads");
  }

  @Test
  void failureMessagesBeyondTheUploadsBudgetAreDroppedNotTheResults() throws Exception {
    int fits = UploadLimits.MAX_MESSAGE_TEXT / JunitXmlParser.MAX_MESSAGE;
    StringBuilder xml = new StringBuilder("<testsuite>");
    String message = "m".repeat(JunitXmlParser.MAX_MESSAGE);
    for (int i = 0; i < fits + 2; i++) {
      xml.append("<testcase name=\"t").append(i).append("\"><failure message=\"");
      xml.append(message).append("\"/></testcase>");
    }
    xml.append("</testsuite>");

    List<TestCaseResult> results = parser.parse("messages.xml", stream(xml.toString()));

    assertThat(results).hasSize(fits + 2).allMatch(r -> r.outcome() == Outcome.FAILED);
    assertThat(results.get(fits - 1).message()).hasSize(JunitXmlParser.MAX_MESSAGE);
    assertThat(results.get(fits).message()).isNull();
    assertThat(results.get(fits + 1).message()).isNull();
  }

  @Test
  void theJdkLimitsBackTheParserUp() {
    StringBuilder attributes = new StringBuilder();
    for (int i = 0; i < 300; i++) {
      attributes.append(" a").append(i).append("=\"x\"");
    }
    String xml = "<testsuite><testcase name=\"t\"" + attributes + "/></testsuite>";

    assertThatThrownBy(() -> parser.parse("attributes.xml", stream(xml)))
        .isInstanceOf(MalformedReportException.class)
        .hasMessageContaining("attributes.xml line 1: not well-formed XML")
        .hasMessageContaining("256");
  }

  private static String cases(int n) {
    StringBuilder xml = new StringBuilder("<testsuite>");
    for (int i = 0; i < n; i++) {
      xml.append("<testcase name=\"t").append(i).append("\"/>");
    }
    return xml.append("</testsuite>").toString();
  }

  /**
   * gotestsum writes a zone; pytest and jest-junit write the runner's local time without one (issue
   * 49, item 10: it was read as UTC), which the upload's {@code timeZone} places.
   */
  @org.junit.jupiter.params.ParameterizedTest(name = "{0}: {1} / local {2}")
  @org.junit.jupiter.params.provider.CsvSource({
    "gotestsum.xml, 2026-11-20T10:00:00Z, ",
    "pytest-xunit2.xml, , 2026-11-20T10:00:00",
    "jest-junit-default.xml, , 2026-11-27T00:36:03",
    "surefire-beforeall.xml, , ",
  })
  void aReportSaysWhenItsSuitesStarted(
      String resource, java.time.Instant started, java.time.LocalDateTime local) throws Exception {
    UploadLimits limits = new UploadLimits();
    try (InputStream in = getClass().getResourceAsStream("/reports/" + resource)) {
      parser.parse(resource, in, limits);
    }

    assertThat(limits.takeStarted()).isEqualTo(started);
    assertThat(limits.takeStartedLocal()).isEqualTo(local);
    assertThat(limits.takeStarted()).as("taken once per file").isNull();
    assertThat(limits.takeStartedLocal()).as("taken once per file").isNull();
  }

  /**
   * Issue 49, item 3: the suite properties that say where the tests ran tell a CI matrix's jobs
   * apart; the ones that change from run to run of one job (user, paths, time) are not read.
   */
  @Test
  void aSuitesPropertiesSayWhereItsTestsRan() throws Exception {
    String xml =
        """
        <testsuite name="com.acme.SumTest">
          <properties>
            <property name="os.name" value="Linux"/>
            <property name="java.version" value="21.0.5"/>
            <property name="user.dir" value="/home/runner/work/shop"/>
            <property name="basedir" value="/tmp/x"/>
          </properties>
          <testcase name="adds" classname="com.acme.SumTest"/>
        </testsuite>
        """;
    UploadLimits limits = new UploadLimits();
    parser.parse(
        "TEST-com.acme.SumTest.xml",
        new java.io.ByteArrayInputStream(xml.getBytes(java.nio.charset.StandardCharsets.UTF_8)),
        limits);

    assertThat(limits.takeConfiguration()).isEqualTo("java.version=21.0.5, os.name=Linux");
    assertThat(limits.takeConfiguration()).as("taken once per file").isNull();
  }

  private List<TestCaseResult> parse(String resource) throws Exception {
    try (InputStream in = getClass().getResourceAsStream("/reports/" + resource)) {
      return parser.parse(resource, in);
    }
  }

  private static InputStream stream(String xml) {
    return new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8));
  }
}

package dev.trainyard.flaky.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Reports built to exhaust the parser's memory, streamed from a generator (nothing of their size is
 * allocated by the test): each is answered from bounded heap, measured as the bytes this thread
 * allocated while parsing. Before {@link BoundedMarkup}, a 100 MB attribute allocated some 350 MiB.
 */
class BoundedMarkupTest {
  private static final long HUNDRED_MB = 100_000_000L;
  private static final long BOUNDED = 64L * 1024 * 1024;
  private final JunitXmlParser parser = new JunitXmlParser();

  @Test
  void aHundredMegabyteAttributeIsRefusedByNameFromBoundedHeap() {
    InputStream report =
        report("<testsuite><testcase name=\"", 'a', HUNDRED_MB, "\"/></testsuite>");

    long allocated = allocatedWhile(() -> parser.parse("huge.xml", report));

    assertThat(allocated).isLessThan(BOUNDED);
    assertThatThrownBy(
            () ->
                parser.parse(
                    "huge.xml",
                    report("<testsuite><testcase name=\"", 'a', HUNDRED_MB, "\"/></testsuite>")))
        .isInstanceOf(MalformedReportException.class)
        .hasMessageContaining("huge.xml")
        .hasMessageContaining(String.valueOf(UploadLimits.MAX_ATTRIBUTE));
  }

  @Test
  void aHugeCdataLogOrCommentIsCutAndTheReportStillReads() throws Exception {
    InputStream log =
        concat(
            report(
                "<testsuite><!-- ",
                '-',
                1,
                " --><testcase classname=\"A\" name=\"fails\"><failure message=\"boom\"><![CDATA["),
            filler('x', 40_000_000L),
            stream("]]></failure><system-out><!--"),
            filler('y', 40_000_000L),
            stream("--></system-out></testcase><testcase classname=\"A\" name=\"passes\"/>"),
            stream("</testsuite>"));
    List<TestCaseResult>[] results = new List[1];

    long allocated = allocatedWhile(() -> results[0] = parser.parse("log.xml", log));

    assertThat(allocated).isLessThan(BOUNDED);
    assertThat(results[0]).extracting(TestCaseResult::name).containsExactly("fails", "passes");
  }

  /** Markup that looks closed to a careless filter but is one long piece to the parser. */
  @Test
  void aCommentOrInstructionThatOnlySeemsClosedIsStillBounded() {
    for (String[] piece :
        new String[][] {{"<testsuite><!--->", "-->"}, {"<testsuite><?x a='>", "?>"}}) {
      InputStream report = report(piece[0], 'a', 30_000_000L, piece[1] + "</testsuite>");
      long allocated = allocatedWhile(() -> parser.parse("sly.xml", report));
      assertThat(allocated).as(piece[0]).isLessThan(BOUNDED);
    }
  }

  @Test
  void aDtdOrAnEncodingTheFilterCannotReadIsRefusedBeforeItIsRead() {
    InputStream doctype = report("<!DOCTYPE r [<!ENTITY x \"", 'a', 30_000_000L, "\">]><r/>");
    assertThatThrownBy(() -> parser.parse("dtd.xml", doctype))
        .isInstanceOf(MalformedReportException.class)
        .hasMessageContaining("DTD");
    InputStream utf16 =
        new ByteArrayInputStream("<testsuite/>".getBytes(StandardCharsets.UTF_16LE));
    assertThatThrownBy(() -> parser.parse("utf16.xml", utf16))
        .isInstanceOf(MalformedReportException.class)
        .hasMessageContaining("not UTF-8");
  }

  /** A value is cut where it may be: never inside {@code &#10;}, which Surefire writes often. */
  @Test
  void aLongMessageFullOfReferencesIsCutBetweenThem() throws Exception {
    String line = "at com.acme.Thing.method(Thing.java:42)&#10;";
    StringBuilder message = new StringBuilder();
    while (message.length() < BoundedMarkup.MAX_PIECE * 2) {
      message.append(line);
    }
    for (int shift = 0; shift < line.length(); shift++) {
      String report =
          "<testsuite><testcase classname=\"A\" name=\"t\"><failure message=\""
              + "x".repeat(shift)
              + message
              + "\"/></testcase></testsuite>";
      List<TestCaseResult> results = parser.parse("refs.xml", stream(report));
      assertThat(results).as("shift " + shift).hasSize(1);
    }
  }

  @Test
  void aTagPastItsLimitFailsTheRead() {
    InputStream tag =
        report("<testsuite><testcase", ' ', BoundedMarkup.MAX_TAG + 10L, "/></testsuite>");

    assertThatThrownBy(() -> parser.parse("tag.xml", tag))
        .isInstanceOf(MalformedReportException.class)
        .hasMessageContaining("a tag is longer than");
  }

  private interface Parse {
    void run() throws Exception;
  }

  private static long allocatedWhile(Parse parse) {
    var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long before = threads.getCurrentThreadAllocatedBytes();
    try {
      parse.run();
    } catch (Exception e) {
      // the outcome is asserted apart; here only the memory counts
    }
    return threads.getCurrentThreadAllocatedBytes() - before;
  }

  private static InputStream report(String head, char fill, long count, String tail) {
    return concat(stream(head), filler(fill, count), stream(tail));
  }

  private static InputStream concat(InputStream... parts) {
    return new SequenceInputStream(Collections.enumeration(List.of(parts)));
  }

  private static InputStream stream(String text) {
    return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
  }

  /** {@code count} bytes of {@code fill}, generated as they are read. */
  private static InputStream filler(char fill, long count) {
    return new InputStream() {
      private long left = count;

      @Override
      public int read() {
        return left-- > 0 ? fill : -1;
      }

      @Override
      public int read(byte[] b, int off, int len) {
        if (left <= 0) {
          return -1;
        }
        int n = (int) Math.min(len, left);
        java.util.Arrays.fill(b, off, off + n, (byte) fill);
        left -= n;
        return n;
      }
    };
  }
}

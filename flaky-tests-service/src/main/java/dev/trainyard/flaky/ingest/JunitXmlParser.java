package dev.trainyard.flaky.ingest;

import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Reads a JUnit XML report as a stream, never as a tree, and refuses what could hurt: any DTD (so
 * no external entities, no entity expansion — XXE and "billion laughs" are rejected outright),
 * nesting deeper than {@value #MAX_DEPTH}, more than 256 attributes on an element, an attribute,
 * comment or CDATA section held whole past {@value BoundedMarkup#MAX_PIECE} bytes ({@link
 * BoundedMarkup} cuts it as it streams, so no single piece costs memory); names, classnames, paths
 * and suite names longer than {@value UploadLimits#MAX_ATTRIBUTE} characters and more test cases
 * than an upload may hold ({@link UploadLimits}); failure messages beyond {@value #MAX_MESSAGE}
 * characters are cut. Understands the producers' dialects: Surefire ({@code flakyFailure}/{@code
 * rerunFailure}, times with decimal commas or thousands separators), pytest xunit1 ({@code
 * file}/{@code line}) and xunit2, jest-junit, gotestsum. A class's failed setup (Surefire's
 * nameless {@code <testcase>}) is the test {@value TestCaseBuilder#CLASS_SETUP} of the class, and a
 * suite's own {@code <error>}/{@code <failure>} the test {@value TestCaseBuilder#SUITE_SETUP} of
 * the suite; a test case with neither name nor classname is skipped and noted, never a reason to
 * refuse the file. Anything else wrong is a {@link MalformedReportException} naming the file and
 * line.
 */
public final class JunitXmlParser {
  public static final int MAX_DEPTH = 64;
  public static final int MAX_MESSAGE = 4096;
  private static final Set<String> ROOTS = Set.of("testsuites", "testsuite");
  private static final XMLInputFactory FACTORY = hardenedFactory();

  /** Every test case of the report, in document order, as the only file of an upload. */
  public List<TestCaseResult> parse(String fileName, InputStream in)
      throws MalformedReportException {
    return parse(fileName, in, new UploadLimits());
  }

  /** Every test case of the report, in document order, counted against the upload's limits. */
  public List<TestCaseResult> parse(String fileName, InputStream in, UploadLimits limits)
      throws MalformedReportException {
    XMLStreamReader xml = null;
    try {
      PushbackInputStream source = new PushbackInputStream(in, 1);
      int first = source.read();
      if (first < 0) {
        throw new MalformedReportException(fileName, 0, "the file is empty");
      }
      source.unread(first);
      xml = FACTORY.createXMLStreamReader(new BoundedMarkup(source));
      return read(fileName, xml, limits);
    } catch (XMLStreamException e) {
      if (e.getNestedException() instanceof BoundedMarkup.Refused refused) {
        throw new MalformedReportException(fileName, refused.line, refused.getMessage());
      }
      int line = e.getLocation() == null ? 0 : e.getLocation().getLineNumber();
      throw new MalformedReportException(fileName, line, "not well-formed XML (" + brief(e) + ")");
    } catch (BoundedMarkup.Refused e) {
      throw new MalformedReportException(fileName, e.line, e.getMessage());
    } catch (IOException e) {
      throw new MalformedReportException(fileName, 0, "could not be read (" + e.getMessage() + ")");
    } finally {
      close(xml);
    }
  }

  private List<TestCaseResult> read(String fileName, XMLStreamReader xml, UploadLimits limits)
      throws XMLStreamException, MalformedReportException {
    List<TestCaseResult> results = new ArrayList<>();
    Deque<String> suites = new ArrayDeque<>();
    Deque<String> open = new ArrayDeque<>();
    TestCaseBuilder current = null;
    int suiteFailureDepth = 0; // the depth of a suite's own <error>/<failure> being read
    boolean sawRoot = false;
    while (xml.hasNext()) {
      int event = xml.next();
      if (event == XMLStreamConstants.DTD) {
        throw new MalformedReportException(
            fileName, xml.getLocation().getLineNumber(), "DTDs are not allowed in test reports");
      }
      if (event == XMLStreamConstants.START_ELEMENT) {
        String name = xml.getLocalName();
        int line = xml.getLocation().getLineNumber();
        if (!sawRoot) {
          if (!ROOTS.contains(name)) {
            throw new MalformedReportException(
                fileName, line, "not a JUnit XML report (the root is <" + name + ">)");
          }
          sawRoot = true;
        }
        open.push(name);
        if (open.size() > MAX_DEPTH) {
          throw new MalformedReportException(
              fileName, line, "elements nest deeper than " + MAX_DEPTH + " levels");
        }
        if (name.equals("testsuite")) {
          limits.suiteStarted(attribute(xml, "timestamp", null));
          suites.push(
              limits.attribute(fileName, line, "a <testsuite> name", attribute(xml, "name", "")));
        } else if (name.equals("testcase")) {
          limits.testCase(fileName, line);
          current =
              TestCaseBuilder.start(
                  fileName, line, xml, suites.isEmpty() ? null : suites.peek(), limits);
        } else if (current != null) {
          current.child(name, xml);
        } else if (name.equals("property") && open.contains("properties")) {
          limits.suiteProperty(attribute(xml, "name", null), attribute(xml, "value", null));
        } else if (isSuiteFailure(name, open)) {
          limits.testCase(fileName, line);
          current = TestCaseBuilder.suite(suites.peek(), fileName);
          current.child(name, xml);
          suiteFailureDepth = open.size();
        }
      } else if (event == XMLStreamConstants.END_ELEMENT) {
        int depth = open.size();
        String name = open.pop();
        if (current != null && depth == suiteFailureDepth) {
          current.endChild();
          results.add(current.build(limits));
          current = null;
          suiteFailureDepth = 0;
        } else if (name.equals("testsuite")) {
          suites.pop();
        } else if (name.equals("testcase") && current != null) {
          results.add(current.build(limits));
          current = null;
        } else if (current != null) {
          current.endChild();
        }
      } else if ((event == XMLStreamConstants.CHARACTERS || event == XMLStreamConstants.CDATA)
          && current != null) {
        current.text(xml.getText());
      }
    }
    if (!sawRoot) {
      throw new MalformedReportException(fileName, 0, "the file holds no XML element");
    }
    return results;
  }

  /** An {@code <error>} or {@code <failure>} whose parent ({@code open}'s second) is a suite. */
  private static boolean isSuiteFailure(String name, Deque<String> open) {
    if (!name.equals("error") && !name.equals("failure")) {
      return false;
    }
    var outer = open.iterator();
    outer.next(); // the element itself
    return outer.hasNext() && outer.next().equals("testsuite");
  }

  static String attribute(XMLStreamReader xml, String name, String fallback) {
    String value = xml.getAttributeValue(null, name);
    return value == null ? fallback : value;
  }

  private static XMLInputFactory hardenedFactory() {
    XMLInputFactory factory = XMLInputFactory.newDefaultFactory();
    factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    factory.setProperty(XMLInputFactory.IS_REPLACING_ENTITY_REFERENCES, false);
    factory.setProperty(XMLInputFactory.IS_COALESCING, false);
    // the JDK's own limits as a second line behind the checks above (no DTD means no entities;
    // for these properties 0 means unlimited, so each is a real bound)
    factory.setProperty("jdk.xml.maxElementDepth", MAX_DEPTH + 1);
    factory.setProperty("jdk.xml.elementAttributeLimit", 256);
    factory.setProperty("jdk.xml.maxXMLNameLimit", 1000);
    factory.setProperty("jdk.xml.entityExpansionLimit", 1);
    factory.setProperty("jdk.xml.maxGeneralEntitySizeLimit", 1024);
    factory.setProperty("jdk.xml.maxParameterEntitySizeLimit", 1024);
    factory.setProperty("jdk.xml.totalEntitySizeLimit", 1024);
    factory.setProperty("jdk.xml.entityReplacementLimit", 1024);
    return factory;
  }

  private static String brief(XMLStreamException e) {
    String message = e.getMessage() == null ? "" : e.getMessage();
    int cut = message.indexOf("Message: ");
    return (cut >= 0 ? message.substring(cut + "Message: ".length()) : message).trim();
  }

  private static void close(XMLStreamReader xml) {
    if (xml != null) {
      try {
        xml.close();
      } catch (XMLStreamException e) {
        // nothing was written; nothing to clean up
      }
    }
  }
}

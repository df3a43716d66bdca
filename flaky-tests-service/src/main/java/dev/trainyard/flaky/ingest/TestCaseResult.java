package dev.trainyard.flaky.ingest;

/**
 * One test case of one report. {@code parent} is the enclosing test suite's name, {@code filePath}
 * the source file when the producer names it (null otherwise); {@code failedAttempts} counts the
 * failures the runner saw, retries included; {@code message} is the first failure's message, cut to
 * {@value JunitXmlParser#MAX_MESSAGE} characters.
 */
public record TestCaseResult(
    String parent,
    String classname,
    String name,
    String filePath,
    Outcome outcome,
    long durationMillis,
    int failedAttempts,
    String message) {

  /** This test case with {@code path} as its file path. */
  TestCaseResult at(String path) {
    return new TestCaseResult(
        parent, classname, name, path, outcome, durationMillis, failedAttempts, message);
  }
}

package dev.trainyard.flaky.ingest;

/** An uploaded file that is not a JUnit XML report trainyard accepts; the message names where. */
public class MalformedReportException extends Exception {
  private final String fileName;
  private final int line;

  public MalformedReportException(String fileName, int line, String problem) {
    super(fileName + (line > 0 ? " line " + line : "") + ": " + problem);
    this.fileName = fileName;
    this.line = line;
  }

  public String fileName() {
    return fileName;
  }

  public int line() {
    return line;
  }
}

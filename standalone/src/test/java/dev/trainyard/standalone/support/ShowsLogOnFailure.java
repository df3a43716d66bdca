package dev.trainyard.standalone.support;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * When a test that runs the standalone as its own process fails, prints the last lines each such
 * process printed. The full log stays in the test's data directory, which a CI machine does not
 * keep; what a failed test printed is all that reaches whoever reads the CI run.
 */
public final class ShowsLogOnFailure implements TestWatcher {
  static final int LINES = 300;

  @Override
  public void testFailed(ExtensionContext context, Throwable cause) {
    for (StandaloneProcess process : StandaloneProcess.takeStarted()) {
      List<String> output = process.output();
      List<String> tail = output.subList(Math.max(0, output.size() - LINES), output.size());
      System.out.println(
          "---- "
              + context.getDisplayName()
              + ": the last "
              + tail.size()
              + " lines of "
              + process.logFile());
      tail.forEach(System.out::println);
    }
  }

  @Override
  public void testSuccessful(ExtensionContext context) {
    StandaloneProcess.takeStarted();
  }

  @Override
  public void testAborted(ExtensionContext context, Throwable cause) {
    StandaloneProcess.takeStarted();
  }

  @Override
  public void testDisabled(ExtensionContext context, Optional<String> reason) {
    StandaloneProcess.takeStarted();
  }
}

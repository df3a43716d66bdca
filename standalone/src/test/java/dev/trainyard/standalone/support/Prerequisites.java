package dev.trainyard.standalone.support;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Assumptions;

/**
 * What a test needs from outside the build (a program, files a {@code .ci} script installs): the
 * test is skipped without it, unless {@code -D<property>=required} (CI) makes that a failure.
 */
public final class Prerequisites {
  private Prerequisites() {}

  /** Skips the test, or fails it when {@code property} is {@code required}, unless {@code met}. */
  public static void require(boolean met, String property, String what) {
    if ("required".equals(System.getProperty(property)) && !met) {
      throw new IllegalStateException(what + " (required by -D" + property + "=required)");
    }
    Assumptions.assumeTrue(met, what);
  }

  public static boolean onPath(String program) {
    return Arrays.stream(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
        .anyMatch(dir -> Files.isExecutable(Path.of(dir, program)));
  }
}

package dev.trainyard.standalone.telemetry;

import dev.trainyard.standalone.support.Prerequisites;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * {@code promtool check metrics} (Debian's {@code prometheus} package; {@code .ci/helm-check}
 * installs it): exit 0 is clean, 3 lint notes only, anything else a scrape Prometheus cannot read.
 */
public final class Promtool {
  private Promtool() {}

  /** What promtool said of a scrape. */
  public record Verdict(int exitCode, String output) {}

  public static boolean available() {
    return Prerequisites.onPath("promtool");
  }

  /**
   * Checks {@code exposition}; without promtool the test is skipped (failed under {@code
   * -Dtrainyard.promtool=required}).
   */
  public static Verdict checkMetrics(String exposition) throws IOException, InterruptedException {
    Prerequisites.require(
        available(),
        "trainyard.promtool",
        "no promtool on the PATH (Debian's prometheus package; .ci/helm-check installs it)");
    Process check =
        new ProcessBuilder("promtool", "check", "metrics").redirectErrorStream(true).start();
    check.getOutputStream().write(exposition.getBytes(StandardCharsets.UTF_8));
    check.getOutputStream().close();
    String output = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    return new Verdict(check.waitFor(), output);
  }

  /** The names of every sample of an exposition ({@code x_bucket}, {@code x_total}, …). */
  public static Set<String> sampleNames(String exposition) {
    Set<String> names = new LinkedHashSet<>();
    exposition
        .lines()
        .filter(l -> !l.isBlank() && !l.startsWith("#"))
        .map(l -> l.split("[{ ]", 2)[0])
        .forEach(names::add);
    return names;
  }
}

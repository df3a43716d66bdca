package dev.trainyard.standalone.telemetry;

import dev.trainyard.standalone.support.Prerequisites;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.Yaml;

/**
 * {@code promtool check metrics} (Debian's {@code prometheus} package; {@code .ci/helm-check}
 * installs it): exit 0 is clean, 3 lint notes only, anything else a scrape Prometheus cannot read;
 * and {@code promtool test rules} on an alert's expression over scraped series.
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

  /**
   * Whether the expression of alert {@code alert} of the chart's rule file gives what it should
   * once {@code series} (exposition lines with their labels) have held their values for five
   * minutes: promtool's verdict on the expectation that it gives one sample labelled {@code
   * expected} (e.g. {@code {namespace="cluster"}}), or none when {@code expected} is null.
   */
  public static Verdict evaluates(String alert, List<String> series, String expected)
      throws IOException, InterruptedException {
    Prerequisites.require(
        available(),
        "trainyard.promtool",
        "no promtool on the PATH (Debian's prometheus package; .ci/helm-check installs it)");
    String expr =
        alertExpression(Path.of("..", "helm", "trainyard", "files", "alerts.yaml"), alert);
    StringBuilder test = new StringBuilder("tests:\n  - interval: 1m\n    input_series:\n");
    for (String line : series) {
      int space = line.lastIndexOf(' ');
      test.append("      - series: '")
          .append(line, 0, space)
          .append("'\n        values: '")
          .append(line.substring(space + 1))
          .append("x5'\n");
    }
    test.append("    promql_expr_test:\n      - expr: |\n");
    expr.lines().forEach(l -> test.append("          ").append(l).append('\n'));
    test.append("        eval_time: 5m\n        exp_samples:");
    if (expected == null) {
      test.append(" []\n");
    } else {
      // the value an alert's expression gives is its left side's: 0 for "no broker reached"
      test.append("\n          - labels: '").append(expected).append("'\n            value: 0\n");
    }
    Path file = Files.createTempFile("trainyard-alert", ".yaml");
    try {
      Files.writeString(file, test);
      Process run =
          new ProcessBuilder("promtool", "test", "rules", file.toString())
              .redirectErrorStream(true)
              .start();
      String output = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      return new Verdict(run.waitFor(), output + "\n" + test);
    } finally {
      Files.deleteIfExists(file);
    }
  }

  /** The expression of alert {@code alert} in rule file {@code rules}. */
  @SuppressWarnings("unchecked")
  static String alertExpression(Path rules, String alert) throws IOException {
    Map<String, Object> file = new Yaml().load(Files.readString(rules));
    for (Map<String, Object> group : (List<Map<String, Object>>) file.get("groups")) {
      for (Map<String, Object> rule : (List<Map<String, Object>>) group.get("rules")) {
        if (alert.equals(rule.get("alert"))) {
          return ((String) rule.get("expr")).strip();
        }
      }
    }
    throw new IllegalArgumentException(rules + " has no alert " + alert);
  }
}

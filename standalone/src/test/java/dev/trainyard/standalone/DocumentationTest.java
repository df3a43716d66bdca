package dev.trainyard.standalone;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The project's docs stand on their own: no Markdown file of the repository links outside it (no
 * web address, no path that leaves the repository, nothing under a {@code ../shared} folder), and
 * every relative link names a file that exists.
 */
class DocumentationTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

  /** Dotted names the docs use that start like a chart value and are something else. */
  private static final Map<String, String> NOT_CHART_VALUES =
      Map.of(
          "github.com", "a host name",
          "kafka.port", "a key of the standalone's data/standalone.properties",
          "kafka.controller.port", "a key of the standalone's data/standalone.properties",
          "bootstrap.token", "a key of the standalone's data/standalone.properties",
          "logging.structured.format.console", "a Spring Boot property",
          "logging.level.trainyard.commands", "a Spring Boot property",
          "image.base", "a Maven property of the images profile",
          "image.prefix", "a Maven property of the images profile");

  @Test
  void everyMarkdownFileLinksOnlyToFilesOfTheRepository() throws IOException {
    List<Path> files = markdown();
    assertThat(files).contains(ROOT.resolve("README.md"), ROOT.resolve("docs/README.md"));
    List<String> problems = new ArrayList<>();
    for (Path file : files) {
      String text = Files.readString(file, StandardCharsets.UTF_8);
      String name = ROOT.relativize(file).toString();
      if (text.contains("../shared")) {
        problems.add(name + " names ../shared");
      }
      Matcher link = LINK.matcher(text);
      while (link.find()) {
        String target = link.group(1);
        if (target.startsWith("#")) {
          continue;
        }
        if (target.matches("(?i)[a-z][a-z0-9+.-]*:.*")) {
          problems.add(name + " links outside the repository: " + target);
          continue;
        }
        Path resolved = file.getParent().resolve(target.replaceAll("#.*", "")).normalize();
        if (!resolved.startsWith(ROOT)) {
          problems.add(name + " links outside the repository: " + target);
        } else if (!Files.exists(resolved)) {
          problems.add(name + " links to a missing file: " + target);
        }
      }
    }
    assertThat(problems).isEmpty();
  }

  @Test
  void theReadmeLeadsIntoTheDocs() throws IOException {
    String readme = Files.readString(ROOT.resolve("README.md"), StandardCharsets.UTF_8);

    assertThat(readme).contains("](docs/README.md)", "](docs/api.md)", "](docs/configuration.md)");
  }

  @Test
  void everyEnvironmentVariableTheServicesOrTheChartReadIsInTheConfigurationReference()
      throws IOException {
    String reference =
        Files.readString(ROOT.resolve("docs/configuration.md"), StandardCharsets.UTF_8);
    // not inside another variable (LOGGING_LEVEL_TRAINYARD_COMMANDS is Spring's, for a logger)
    Pattern variable =
        Pattern.compile("(?<![A-Z0-9_])TRAINYARD_[A-Z0-9_]*[A-Z0-9](?![A-Z0-9_]*\\*)");
    java.util.Set<String> read = new java.util.TreeSet<>();
    List<Path> sources = new ArrayList<>();
    for (String module :
        List.of(
            "common",
            "gateway",
            "queue-worker",
            "webhook-dispatcher",
            "flaky-tests-service",
            "standalone")) {
      sources.add(ROOT.resolve(module).resolve("src/main"));
    }
    sources.add(ROOT.resolve("helm"));
    for (Path source : sources) {
      try (Stream<Path> walk = Files.walk(source)) {
        for (Path file : walk.filter(Files::isRegularFile).toList()) {
          Matcher m = variable.matcher(Files.readString(file, StandardCharsets.UTF_8));
          while (m.find()) {
            read.add(m.group());
          }
        }
      }
    }
    assertThat(read).hasSizeGreaterThan(40);
    assertThat(read.stream().filter(v -> !reference.contains("`" + v + "`")).toList())
        .as("read by a service or the chart, missing from docs/configuration.md")
        .isEmpty();
  }

  /**
   * Every chart value the docs name exists in the chart's values.yaml: each key of a {@code --set}
   * (also in {@code TRAINYARD_CLUSTER_SET} lists), and each dotted name in backticks that starts
   * with a top-level value ({@code `queueWorker.replicas`}). A value renamed in the chart and not
   * in the docs fails here, not at a newcomer's {@code helm install}.
   */
  @Test
  @SuppressWarnings("unchecked")
  void everyChartValueTheDocsNameExistsInValuesYaml() throws IOException {
    Map<String, Object> values;
    try (var in = Files.newBufferedReader(ROOT.resolve("helm/trainyard/values.yaml"))) {
      values = (Map<String, Object>) new org.yaml.snakeyaml.Yaml().load(in);
    }
    String topLevel = String.join("|", values.keySet());
    Pattern set = Pattern.compile("--set(?:-string|-file|-json)?[ =]([A-Za-z][\\w.\\[\\]-]*)=");
    Pattern listed = Pattern.compile("(?:^|[;\"'])((?:" + topLevel + ")(?:\\.[\\w\\[\\]-]+)+)=");
    Pattern named =
        Pattern.compile("`((?:" + topLevel + ")(?:\\.[A-Za-z0-9_\\[\\]-]+)+)(?:=[^`]*)?`");
    List<String> problems = new ArrayList<>();
    int checked = 0;
    for (Path file : markdown()) {
      String text = Files.readString(file, StandardCharsets.UTF_8);
      for (Pattern pattern : List.of(set, listed, named)) {
        Matcher m = pattern.matcher(text);
        while (m.find()) {
          checked++;
          if (!NOT_CHART_VALUES.containsKey(m.group(1)) && !exists(values, m.group(1))) {
            problems.add(ROOT.relativize(file) + " names " + m.group(1));
          }
        }
      }
    }
    assertThat(checked).isGreaterThan(30);
    assertThat(problems).as("chart values the docs name that values.yaml lacks").isEmpty();
  }

  /**
   * Whether {@code path} ({@code a.b[0].c}) is a value of {@code node}: each key present, except
   * under a map the chart leaves empty for the user to fill (annotations, labels, selectors) or a
   * list (whose items the docs name by index).
   */
  @SuppressWarnings("unchecked")
  private static boolean exists(Object node, String path) {
    Object at = node;
    for (String part : path.replaceAll("\\[\\d+]", "").split("\\.")) {
      if (at instanceof Map<?, ?> map && map.containsKey(part)) {
        at = map.get(part);
      } else {
        return at instanceof List<?> || (at instanceof Map<?, ?> map && map.isEmpty());
      }
    }
    return true;
  }

  /** The project's Markdown files: not build output, installed tools or git's own. */
  private static List<Path> markdown() throws IOException {
    try (Stream<Path> walk = Files.walk(ROOT)) {
      return walk.filter(p -> p.toString().endsWith(".md"))
          .filter(
              p ->
                  Stream.of(ROOT.relativize(p).toString().split("/"))
                      .noneMatch(
                          part ->
                              part.equals("target")
                                  || part.equals("node_modules")
                                  || part.equals(".git")
                                  || part.equals(".tools")
                                  || part.equals("data")))
          .toList();
    }
  }
}

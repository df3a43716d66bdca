package dev.trainyard.standalone.telemetry;

import dev.trainyard.common.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;

/**
 * The chart's Grafana dashboard ({@code helm/trainyard/files/grafana-dashboard.json}) and the
 * metrics its panels' PromQL queries name: scraped ones, and the series the chart's recording rules
 * record (their names hold a colon, as Prometheus's convention has it, and a scraped name never
 * does).
 */
public final class DashboardQueries {
  private static final Path CHART = Path.of("..", "helm", "trainyard");
  private static final Pattern RECORD =
      Pattern.compile("^\\s*- record:\\s*(\\S+)", Pattern.MULTILINE);
  private static final Pattern IDENTIFIER = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
  private static final Set<String> KEYWORDS =
      Set.of(
          "and",
          "or",
          "unless",
          "by",
          "without",
          "on",
          "ignoring",
          "group_left",
          "offset",
          "bool",
          "group_right",
          "inf",
          "nan");

  private DashboardQueries() {}

  public static JsonNode dashboard() throws IOException {
    return Json.mapper()
        .readTree(Files.readString(CHART.resolve(Path.of("files", "grafana-dashboard.json"))));
  }

  /**
   * The names the chart's recording rules record: every {@code record:} of {@code
   * files/alerts.yaml} and of {@code templates/monitoring.yaml} (the objectives rendered from the
   * values), read as text.
   */
  public static Set<String> ruleRecords() throws IOException {
    Set<String> names = new TreeSet<>();
    for (Path file :
        List.of(
            CHART.resolve(Path.of("files", "alerts.yaml")),
            CHART.resolve(Path.of("templates", "monitoring.yaml")))) {
      Matcher m = RECORD.matcher(Files.readString(file));
      while (m.find()) {
        names.add(m.group(1));
      }
    }
    return names;
  }

  /** Every {@code expr} of every panel (rows' panels included). */
  public static List<String> queries(JsonNode dashboard) {
    List<String> out = new ArrayList<>();
    collect(dashboard.path("panels"), out);
    return out;
  }

  private static void collect(JsonNode panels, List<String> out) {
    for (JsonNode panel : panels) {
      for (JsonNode target : panel.path("targets")) {
        if (target.hasNonNull("expr")) {
          out.add(target.get("expr").asString());
        }
      }
      collect(panel.path("panels"), out);
    }
  }

  /** The metric names the dashboard's queries name. */
  public static Set<String> metricNames(JsonNode dashboard) {
    Set<String> names = new TreeSet<>();
    queries(dashboard).forEach(q -> names.addAll(metricNames(q)));
    return names;
  }

  /** The metric names the dashboard's queries name that a scrape holds: those without a colon. */
  public static Set<String> scrapedNames(JsonNode dashboard) {
    return metricNames(dashboard).stream()
        .filter(n -> !n.contains(":"))
        .collect(Collectors.toCollection(TreeSet::new));
  }

  /**
   * The metric names the dashboard's queries name that a recording rule records, not a scrape:
   * those with a colon.
   */
  public static Set<String> recordedNames(JsonNode dashboard) {
    return metricNames(dashboard).stream()
        .filter(n -> n.contains(":"))
        .collect(Collectors.toCollection(TreeSet::new));
  }

  /**
   * The metric names of one PromQL expression: its identifiers outside label matchers, range and
   * grouping clauses, strings and Grafana variables, that are not functions (an identifier before a
   * parenthesis) nor operators.
   */
  static Set<String> metricNames(String promql) {
    String bare =
        promql
            .replaceAll("\"(\\\\.|[^\"\\\\])*\"", "\"\"")
            .replaceAll("\\{[^}]*}", " ")
            .replaceAll("\\[[^]]*]", " ")
            .replaceAll("\\$\\{?[a-zA-Z_]+}?", " ")
            .replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " ");
    Set<String> names = new TreeSet<>();
    Matcher m = IDENTIFIER.matcher(bare);
    while (m.find()) {
      String id = m.group();
      int after = m.end();
      while (after < bare.length() && bare.charAt(after) == ' ') {
        after++;
      }
      boolean call = after < bare.length() && bare.charAt(after) == '(';
      boolean number = m.start() > 0 && Character.isDigit(bare.charAt(m.start() - 1));
      if (!call && !number && !KEYWORDS.contains(id.toLowerCase(java.util.Locale.ROOT))) {
        names.add(id);
      }
    }
    return names;
  }
}

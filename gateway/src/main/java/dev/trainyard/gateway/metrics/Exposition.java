package dev.trainyard.gateway.metrics;

import java.math.BigDecimal;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * Renders lanes in the Prometheus text exposition format 0.0.4: each metric once, with its {@code #
 * HELP} and {@code # TYPE} lines, followed by the series of every lane (so a queue with nothing in
 * it still has all its series).
 */
public final class Exposition {
  public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private record Gauge(String name, String help, ToLongFunction<LaneMetrics> value) {}

  private record Timing(String name, String help, Function<LaneMetrics, Histogram> value) {}

  private static final List<Gauge> GAUGES =
      List.of(
          new Gauge("mq_depth_current", "PRs in the queue now.", LaneMetrics::depth),
          new Gauge(
              "mq_awaiting_mergeability",
              "PRs waiting on readiness (not_ready).",
              LaneMetrics::awaitingMergeability),
          new Gauge("mq_testing_slots_active", "PRs in testing.", LaneMetrics::testingActive));

  private static final String CONCLUSIONS = "mq_pr_conclusions_1h_total";

  /**
   * The hosted API's names end in {@code _total} and {@code _seconds} like a counter's and a
   * histogram's, but each is a window of the last hour that falls as it slides: the help says so.
   */
  private static final String WINDOW_COUNT =
      " A count over the sliding last hour, not a counter: it falls as conclusions age out (read"
          + " it as is; rate() of it means nothing).";

  private static final String WINDOW_HISTOGRAM =
      " A sliding last hour, not a cumulative histogram: its buckets fall as PRs age out (take"
          + " quantiles of it as is, without rate()).";
  private static final Gauge RESTARTS =
      new Gauge(
          "mq_pr_restarts_1h_total",
          "Test restarts in the last hour." + WINDOW_COUNT,
          LaneMetrics::restarts);

  private static final List<Timing> TIMINGS =
      List.of(
          new Timing(
              "mq_pr_wait_duration_1h_seconds",
              "Submit to first test start, of PRs concluded in the last hour." + WINDOW_HISTOGRAM,
              LaneMetrics::waitDuration),
          new Timing(
              "mq_pr_test_duration_1h_seconds",
              "Durations of test runs concluded in the last hour." + WINDOW_HISTOGRAM,
              LaneMetrics::testDuration),
          new Timing(
              "mq_pr_time_in_queue_1h_seconds",
              "Submit to conclusion, of PRs concluded in the last hour." + WINDOW_HISTOGRAM,
              LaneMetrics::timeInQueue));

  private Exposition() {}

  public static String render(List<LaneMetrics> lanes) {
    StringBuilder out = new StringBuilder();
    for (Gauge gauge : GAUGES) {
      gauge(out, gauge, lanes);
    }
    header(out, CONCLUSIONS, "PRs that left the queue in the last hour." + WINDOW_COUNT, "gauge");
    for (LaneMetrics lane : lanes) {
      conclusion(out, lane, "merged", lane.merged());
      conclusion(out, lane, "failed", lane.failed());
      conclusion(out, lane, "cancelled", lane.cancelled());
    }
    gauge(out, RESTARTS, lanes);
    for (Timing timing : TIMINGS) {
      header(out, timing.name(), timing.help(), "histogram");
      for (LaneMetrics lane : lanes) {
        histogram(out, timing.name(), lane, timing.value().apply(lane));
      }
    }
    return out.toString();
  }

  private static void gauge(StringBuilder out, Gauge gauge, List<LaneMetrics> lanes) {
    header(out, gauge.name(), gauge.help(), "gauge");
    for (LaneMetrics lane : lanes) {
      sample(
          out,
          gauge.name(),
          labels(lane, null, null),
          Long.toString(gauge.value().applyAsLong(lane)));
    }
  }

  private static void conclusion(StringBuilder out, LaneMetrics lane, String kind, long value) {
    sample(out, CONCLUSIONS, labels(lane, "conclusion", kind), Long.toString(value));
  }

  private static void histogram(StringBuilder out, String name, LaneMetrics lane, Histogram h) {
    for (int i = 0; i < Histogram.BOUNDS_SECONDS.length; i++) {
      sample(
          out,
          name + "_bucket",
          labels(lane, "le", Long.toString(Histogram.BOUNDS_SECONDS[i])),
          Long.toString(h.cumulative(i)));
    }
    sample(out, name + "_bucket", labels(lane, "le", "+Inf"), Long.toString(h.count()));
    sample(out, name + "_sum", labels(lane, null, null), seconds(h.sumMillis()));
    sample(out, name + "_count", labels(lane, null, null), Long.toString(h.count()));
  }

  private static void header(StringBuilder out, String name, String help, String type) {
    out.append("# HELP ").append(name).append(' ').append(escapeHelp(help)).append('\n');
    out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
  }

  private static void sample(StringBuilder out, String name, String labels, String value) {
    out.append(name).append(labels).append(' ').append(value).append('\n');
  }

  private static String labels(LaneMetrics lane, String extraName, String extraValue) {
    StringBuilder out = new StringBuilder("{");
    label(out, "repo", lane.repo());
    out.append(',');
    label(out, "repo_host", lane.repoHost());
    out.append(',');
    label(out, "branch", lane.branch());
    out.append(',');
    label(out, "queue_type", lane.queueType());
    if (extraName != null) {
      out.append(',');
      label(out, extraName, extraValue);
    }
    return out.append('}').toString();
  }

  private static void label(StringBuilder out, String name, String value) {
    out.append(name).append("=\"").append(escapeLabel(value)).append('"');
  }

  /** Label values escape backslash, double quote and line feed. */
  static String escapeLabel(String value) {
    return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }

  /** Help text escapes backslash and line feed only. */
  static String escapeHelp(String help) {
    return help.replace("\\", "\\\\").replace("\n", "\\n");
  }

  /**
   * Milliseconds as decimal seconds without exponent or trailing zeros ({@code 90.5}, {@code 0}).
   */
  static String seconds(long millis) {
    return BigDecimal.valueOf(millis, 3).stripTrailingZeros().toPlainString();
  }
}

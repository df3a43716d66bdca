package dev.trainyard.gateway.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ExpositionTest {

  record Escape(String raw, String label, String help) {}

  static Stream<Escape> escapes() {
    return Stream.of(
        new Escape("main", "main", "main"),
        new Escape("a\"b", "a\\\"b", "a\"b"),
        new Escape("a\\b", "a\\\\b", "a\\\\b"),
        new Escape("a\nb", "a\\nb", "a\\nb"),
        new Escape("\\\"\n", "\\\\\\\"\\n", "\\\\\"\\n"),
        new Escape("feature/ü", "feature/ü", "feature/ü"));
  }

  @ParameterizedTest
  @MethodSource("escapes")
  void escapesLabelValuesAndHelpText(Escape row) {
    assertThat(Exposition.escapeLabel(row.raw())).isEqualTo(row.label());
    assertThat(Exposition.escapeHelp(row.raw())).isEqualTo(row.help());
  }

  @Test
  void branchLabelIsEscapedInEverySeries() {
    String text =
        Exposition.render(
            List.of(LaneMetrics.empty("acme/rocket", "github.com", "we\"ird\\\n", "main")));
    assertThat(text.lines().filter(l -> !l.startsWith("#")))
        .hasSize(7 + 3 * 11)
        .allSatisfy(l -> assertThat(l).contains("branch=\"we\\\"ird\\\\\\n\""));
  }

  @Test
  void theSameRepositoryOnTwoHostsHasTwoSeriesSets() {
    String text = Exposition.render(List.of(rocketOn("github.com"), rocketOn("git.example.test")));
    assertThat(text.lines().filter(l -> l.startsWith("mq_depth_current{")))
        .containsExactly(
            "mq_depth_current{repo=\"acme/rocket\",repo_host=\"github.com\",branch=\"main\",queue_type=\"main\"} 0",
            "mq_depth_current{repo=\"acme/rocket\",repo_host=\"git.example.test\",branch=\"main\",queue_type=\"main\"} 0");
  }

  private static LaneMetrics rocketOn(String host) {
    return LaneMetrics.empty("acme/rocket", host, "main", "main");
  }

  record Bucketing(List<Long> observedMillis, List<Long> cumulative, String sum) {}

  static Stream<Bucketing> bucketings() {
    return Stream.of(
        new Bucketing(List.of(), List.of(0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L), "0"),
        // a bound is inclusive (le)
        new Bucketing(List.of(60_000L), List.of(1L, 1L, 1L, 1L, 1L, 1L, 1L, 1L, 1L), "60"),
        new Bucketing(List.of(60_001L), List.of(0L, 1L, 1L, 1L, 1L, 1L, 1L, 1L, 1L), "60.001"),
        new Bucketing(
            List.of(1_500L, 700_000L, 7_200_000L, 9_000_000L),
            List.of(1L, 1L, 1L, 2L, 2L, 2L, 2L, 3L, 4L),
            "16901.5"),
        // clock skew never yields a negative duration
        new Bucketing(List.of(-5_000L), List.of(1L, 1L, 1L, 1L, 1L, 1L, 1L, 1L, 1L), "0"));
  }

  @ParameterizedTest
  @MethodSource("bucketings")
  void histogramBucketsAreCumulativeAndCountEqualsInf(Bucketing row) {
    LaneMetrics lane = LaneMetrics.empty("acme/rocket", "github.com", "main", "main");
    row.observedMillis().forEach(ms -> lane.testDuration().observe(Duration.ofMillis(ms)));

    String text = Exposition.render(List.of(lane));

    String[] les = {"60", "300", "600", "900", "1800", "3600", "5400", "7200", "+Inf"};
    String labels =
        "{repo=\"acme/rocket\",repo_host=\"github.com\",branch=\"main\",queue_type=\"main\"";
    for (int i = 0; i < les.length; i++) {
      assertThat(text)
          .contains(
              "mq_pr_test_duration_1h_seconds_bucket"
                  + labels
                  + ",le=\""
                  + les[i]
                  + "\"} "
                  + row.cumulative().get(i)
                  + "\n");
    }
    assertThat(text)
        .contains("mq_pr_test_duration_1h_seconds_sum" + labels + "} " + row.sum() + "\n")
        .contains(
            "mq_pr_test_duration_1h_seconds_count"
                + labels
                + "} "
                + row.observedMillis().size()
                + "\n");
  }

  @Test
  void everyMetricHasHelpAndTypeOnceBeforeItsSeries() {
    String text =
        Exposition.render(
            List.of(
                LaneMetrics.empty("acme/rocket", "github.com", "main", "main"),
                LaneMetrics.empty("acme/rocket", "github.com", "main", "bisection")));

    List<String> headers = text.lines().filter(l -> l.startsWith("#")).toList();
    assertThat(headers)
        .containsExactly(
            "# HELP mq_depth_current PRs in the queue now.",
            "# TYPE mq_depth_current gauge",
            "# HELP mq_awaiting_mergeability PRs waiting on readiness (not_ready).",
            "# TYPE mq_awaiting_mergeability gauge",
            "# HELP mq_testing_slots_active PRs in testing.",
            "# TYPE mq_testing_slots_active gauge",
            "# HELP mq_pr_conclusions_1h_total PRs that left the queue in the last hour."
                + " A count over the sliding last hour, not a counter: it falls as conclusions"
                + " age out (read it as is; rate() of it means nothing).",
            "# TYPE mq_pr_conclusions_1h_total gauge",
            "# HELP mq_pr_restarts_1h_total Test restarts in the last hour."
                + " A count over the sliding last hour, not a counter: it falls as conclusions"
                + " age out (read it as is; rate() of it means nothing).",
            "# TYPE mq_pr_restarts_1h_total gauge",
            "# HELP mq_pr_wait_duration_1h_seconds Submit to first test start, of PRs concluded"
                + " in the last hour."
                + " A sliding last hour, not a cumulative histogram: its buckets fall as PRs age"
                + " out (take quantiles of it as is, without rate()).",
            "# TYPE mq_pr_wait_duration_1h_seconds histogram",
            "# HELP mq_pr_test_duration_1h_seconds Durations of test runs concluded in the last"
                + " hour."
                + " A sliding last hour, not a cumulative histogram: its buckets fall as PRs age"
                + " out (take quantiles of it as is, without rate()).",
            "# TYPE mq_pr_test_duration_1h_seconds histogram",
            "# HELP mq_pr_time_in_queue_1h_seconds Submit to conclusion, of PRs concluded in the"
                + " last hour."
                + " A sliding last hour, not a cumulative histogram: its buckets fall as PRs age"
                + " out (take quantiles of it as is, without rate()).",
            "# TYPE mq_pr_time_in_queue_1h_seconds histogram");
    // every sample of a metric follows its own TYPE line, before the next metric's HELP
    String family = null;
    for (String line : text.lines().toList()) {
      if (line.startsWith("# TYPE ")) {
        family = line.split(" ")[2];
      } else if (!line.startsWith("#")) {
        assertThat(line).startsWith(family);
      }
    }
    assertThat(text)
        .contains(
            "mq_depth_current{repo=\"acme/rocket\",repo_host=\"github.com\",branch=\"main\","
                + "queue_type=\"bisection\"} 0\n")
        .contains(
            "mq_pr_conclusions_1h_total{repo=\"acme/rocket\",repo_host=\"github.com\",branch=\"main\","
                + "queue_type=\"main\","
                + "conclusion=\"cancelled\"} 0\n")
        .endsWith("\n");
  }

  @Test
  void noLanesRenderHeadersOnly() {
    // a HELP and a TYPE line for each of the 8 metrics, and no sample
    assertThat(Exposition.render(List.of()).lines()).hasSize(16).allMatch(l -> l.startsWith("# "));
  }
}

package dev.trainyard.standalone.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Which metric names a dashboard query names: what the scrape comparison relies on. */
class DashboardQueriesTest {
  record Row(String promql, Set<String> names) {}

  static Stream<Row> rows() {
    return Stream.of(
        new Row("up{job=~\"$job\"}", Set.of("up")),
        new Row(
            "sum by (outcome) (rate(trainyard_commands_total{job=~\".*worker.*\"}[$__rate_interval]))",
            Set.of("trainyard_commands_total")),
        new Row(
            "histogram_quantile(0.99, sum by (le, uri) (rate(http_server_requests_seconds_bucket[5m])))",
            Set.of("http_server_requests_seconds_bucket")),
        new Row(
            "sum(jvm_memory_used_bytes{area=\"heap\"}) / sum(jvm_memory_max_bytes{area=\"heap\"})",
            Set.of("jvm_memory_used_bytes", "jvm_memory_max_bytes")),
        new Row(
            "max(trainyard_outbox_backlog) and on() (deriv(trainyard_outbox_backlog[15m]) > 0)",
            Set.of("trainyard_outbox_backlog")),
        new Row("sum(mq_depth_current) by (repo, repo_host) * 1e3", Set.of("mq_depth_current")),
        new Row("label_replace(vector(1), \"a\", \"b\", \"c\", \"d\")", Set.of()));
  }

  @ParameterizedTest
  @MethodSource("rows")
  void namesTheMetricsAndNothingElse(Row row) {
    assertThat(DashboardQueries.metricNames(row.promql())).isEqualTo(row.names());
  }
}

package dev.trainyard.standalone.topology;

import static dev.trainyard.standalone.support.QueueSteps.awaitState;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.json.Json;
import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.ClusterHarness;
import dev.trainyard.standalone.support.WebhookReceiver;
import dev.trainyard.standalone.telemetry.DashboardQueries;
import dev.trainyard.standalone.telemetry.Promtool;
import dev.trainyard.standalone.telemetry.TraceFollower;
import dev.trainyard.worker.telemetry.OtlpReceiver;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

/**
 * Telemetry on the chart's topology (every service a process of its own, started from its jar with
 * the rendered environment, so with the chart's JSON logs): one submit's trace followed through the
 * gateway's, the worker's and the dispatcher's log files and collected by an OTLP receiver on
 * loopback from the three processes; then each service's scrape after the merge flow passes {@code
 * promtool check metrics} with nothing said of trainyard's own meters, and every metric the Grafana
 * dashboard's panels query is in those scrapes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClusterTelemetryIT {
  private static final List<String> SERVICES =
      List.of("gateway", "queue-worker", "webhook-dispatcher", "flaky-tests-service");
  private OtlpReceiver otlp;
  private WebhookReceiver webhooks;
  private ClusterHarness cluster;

  @BeforeAll
  void start() throws IOException {
    otlp = new OtlpReceiver();
    webhooks = new WebhookReceiver();
    List<String> values = new ArrayList<>();
    values.add("tracing.endpoint=" + otlp.endpoint());
    values.add("tracing.sampling=1");
    values.add("settings.insecureLocalEndpoints=true");
    for (String component : List.of("gateway", "queueWorker", "webhookDispatcher")) {
      values.add(component + ".extraEnv[0].name=LOGGING_LEVEL_DEV_TRAINYARD");
      values.add(component + ".extraEnv[0].value=DEBUG");
      values.add(
          component + ".extraEnv[1].name=MANAGEMENT_OPENTELEMETRY_TRACING_EXPORT_SCHEDULE_DELAY");
      values.add(component + ".extraEnv[1].value=200ms");
    }
    cluster =
        ClusterHarness.start(
            Files.createTempDirectory("trainyard-cluster-telemetry"),
            Map.of("TRAINYARD_CLUSTER_SET", String.join(";", values)));
  }

  @AfterAll
  void stop() {
    if (cluster != null) {
      cluster.close();
    }
    otlp.close();
    webhooks.close();
  }

  @Test
  void oneSubmitIsOneTraceAcrossThreeProcessesAndTheScrapesHoldWhatTheDashboardAsks()
      throws Exception {
    Api api = cluster.api();
    try (ClusterQueues queues = ClusterQueues.open(cluster, api, 1, 1)) {
      String name = queues.names.get(0);
      TraceFollower follower = new TraceFollower();
      TraceFollower.subscribe(api, webhooks);
      follower.submit(api, name, 1);
      awaitState(api, name, 1, "merged");

      follower.followLogs(this::jsonLines);
      follower.followSpans(otlp);

      Set<String> scraped = new HashSet<>();
      for (String service : SERVICES) {
        String text = scrape(cluster.member(service).fields().get("management"));
        Promtool.Verdict verdict = Promtool.checkMetrics(text);
        assertThat(verdict.exitCode()).as(service + ": " + verdict.output()).isIn(0, 3);
        assertThat(verdict.output().lines())
            .as(service + ": promtool's notes on trainyard's own meters")
            .noneMatch(l -> l.contains("trainyard_"));
        scraped.addAll(Promtool.sampleNames(text));
      }
      Api.Response customer = api.send(api.request("/v1/getMergeQueueMetrics").GET());
      scraped.addAll(Promtool.sampleNames(customer.body()));
      assertThat(DashboardQueries.metricNames(DashboardQueries.dashboard()))
          .as("metrics the dashboard's panels query that no scrape holds")
          .isNotEmpty()
          .allSatisfy(m -> assertThat(scraped).as(m).contains(m));
    }
  }

  /** Every JSON line of the gateway's, the workers' and the dispatcher's log files, flattened. */
  private List<TraceFollower.LogLine> jsonLines() {
    List<TraceFollower.LogLine> lines = new ArrayList<>();
    for (String deployment : List.of("gateway", "queue-worker", "webhook-dispatcher")) {
      for (ClusterHarness.Member member : cluster.members(deployment)) {
        try {
          for (String line : Files.readAllLines(Path.of(member.fields().get("log")))) {
            if (line.startsWith("{")) {
              Map<String, String> fields = new LinkedHashMap<>();
              flatten("", Json.mapper().readTree(line), fields);
              lines.add(
                  new TraceFollower.LogLine(
                      fields.getOrDefault("log.logger", ""),
                      fields,
                      fields.getOrDefault("message", "")));
            }
          }
        } catch (IOException | RuntimeException e) {
          // a line being written: read again on the next round
        }
      }
    }
    return lines;
  }

  private static void flatten(String prefix, JsonNode node, Map<String, String> into) {
    if (node.isObject()) {
      for (Map.Entry<String, JsonNode> e : node.properties()) {
        flatten(prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey(), e.getValue(), into);
      }
    } else {
      into.put(prefix, node.asString());
    }
  }

  private static String scrape(String managementPort) throws Exception {
    HttpResponse<String> r =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + managementPort + "/actuator/prometheus"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    return r.body();
  }
}

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
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import tools.jackson.databind.JsonNode;

/**
 * Telemetry on the chart's topology (every service a process of its own, started from its jar with
 * the rendered environment, so with the chart's JSON logs): one submit's trace followed through the
 * gateway's, the worker's and the dispatcher's log files and collected by an OTLP receiver on
 * loopback from the three processes; then each service's scrape after the merge flow passes {@code
 * promtool check metrics} with nothing said of trainyard's own meters, and every metric the Grafana
 * dashboard's panels query is in those scrapes or, a recorded series (a colon in its name), is one
 * the chart's recording rules record.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterTelemetryIT {
  private static final List<String> SERVICES =
      List.of(
          "trainyard-gateway",
          "trainyard-queue-worker",
          "trainyard-webhook-dispatcher",
          "trainyard-flaky-tests-service");
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
    // low enough that a burst is refused (the dashboard's rate-limit panel needs a refusal)
    values.add("settings.rateLimitPerOrg=20");
    // the logs at the chart's default level: the commands' lines are at INFO
    for (String component : List.of("gateway", "queueWorker", "webhookDispatcher")) {
      values.add(
          component + ".extraEnv[0].name=MANAGEMENT_OPENTELEMETRY_TRACING_EXPORT_SCHEDULE_DELAY");
      values.add(component + ".extraEnv[0].value=200ms");
    }
    // a queue stalls after 15 s here, not 30 minutes, and the workers look every 3 s
    values.add("queueWorker.extraEnv[1].name=TRAINYARD_WORKER_STALLED_AFTER");
    values.add("queueWorker.extraEnv[1].value=15s");
    values.add("queueWorker.extraEnv[2].name=TRAINYARD_WORKER_STALL_CHECK_INTERVAL");
    values.add("queueWorker.extraEnv[2].value=3s");
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
  @Order(1)
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

      assertThat(burst(api, name, 120)).as("a burst past the organization's limit").contains(429);

      // the Kafka client's per-partition meters are bound when the binder looks again (a minute)
      Awaitility.await("the workers' per-partition consumer lag")
          .atMost(Duration.ofSeconds(120))
          .pollInterval(Duration.ofSeconds(2))
          .until(
              () ->
                  scrape(
                          cluster
                              .members("trainyard-queue-worker")
                              .get(0)
                              .fields()
                              .get("management"))
                      .contains("kafka_consumer_fetch_manager_records_lag{"));
      Set<String> scraped = new HashSet<>();
      for (String deployment : SERVICES) {
        assertThat(cluster.members(deployment)).as(deployment).isNotEmpty();
        for (ClusterHarness.Member member : cluster.members(deployment)) {
          String text = scrape(member.fields().get("management"));
          Promtool.Verdict verdict = Promtool.checkMetrics(text);
          assertThat(verdict.exitCode()).as(member.name() + ": " + verdict.output()).isIn(0, 3);
          assertThat(verdict.output().lines())
              .as(member.name() + ": promtool's notes on trainyard's own meters")
              .noneMatch(l -> l.contains("trainyard_"));
          scraped.addAll(Promtool.sampleNames(text));
        }
      }
      Api.Response customer = api.send(api.request("/v1/getMergeQueueMetrics").GET());
      scraped.addAll(Promtool.sampleNames(customer.body()));
      JsonNode dashboard = DashboardQueries.dashboard();
      assertThat(DashboardQueries.scrapedNames(dashboard))
          .as("metrics the dashboard's panels query that no scrape holds")
          .isNotEmpty()
          .allSatisfy(m -> assertThat(scraped).as(m).contains(m));
      // a name with a colon is a recording rule's, on no scrape: the chart's rules record it
      Set<String> records = DashboardQueries.ruleRecords();
      assertThat(DashboardQueries.recordedNames(dashboard))
          .as("recorded series the dashboard queries that no rule records")
          .isNotEmpty()
          .allSatisfy(r -> assertThat(records).as(r).contains(r));
    }
  }

  /**
   * What an operator is paged for, on the series the services expose: a queue whose CI never
   * reports counts as stalled (and a worker's WARN line names it); then the broker is stopped and
   * the store after it, and on each service's scrape the outage alert's expression gives the
   * namespace, until the backend is back.
   */
  @Test
  @Order(2)
  void aStalledQueueAndEachOutageShowOnTheScrapes() throws Exception {
    Api api = cluster.api();
    try (ClusterQueues silent = ClusterQueues.open(cluster, api, 1, 1, false)) {
      String name = silent.names.get(0);
      assertThat(api.post("/v1/submitPullRequest", Api.prBody(name, 1)).status()).isEqualTo(200);
      Awaitility.await("the queue whose CI never reports counted as stalled")
          .atMost(Duration.ofSeconds(90))
          .pollInterval(Duration.ofSeconds(2))
          .until(() -> sum(scrapes("trainyard-queue-worker"), "trainyard_queues_stalled") >= 1);
      assertThat(jsonLines())
          .as("a worker's WARN line names the stalled queue")
          .anySatisfy(l -> assertThat(l.message()).contains("queue(s) stalled").contains(name));

      outage("kafka", "broker", "TrainyardBrokerUnreachable");
      outage("store", "store", "TrainyardStoreUnreachable");
    }
  }

  /** Stops {@code backend}, checks {@code alert} on the scrapes, and starts it again. */
  private void outage(String backend, String dependency, String alert) throws Exception {
    cluster.control("scale " + backend + " 0", Duration.ofSeconds(120));
    int services;
    try {
      List<String> series =
          Awaitility.await(dependency + " down on every service's scrape")
              .atMost(Duration.ofSeconds(90))
              .pollInterval(Duration.ofSeconds(2))
              .until(() -> labelled(dependency), s -> !s.isEmpty() && all(s, 0));
      services = series.size();
      Promtool.Verdict verdict = Promtool.evaluates(alert, series, "{namespace=\"cluster\"}");
      assertThat(verdict.exitCode()).as(verdict.output()).isZero();
    } finally {
      cluster.control("scale " + backend + " up", Duration.ofSeconds(120));
    }
    List<String> again =
        Awaitility.await(dependency + " up again on every service's scrape")
            .atMost(Duration.ofSeconds(120))
            .pollInterval(Duration.ofSeconds(2))
            .until(() -> labelled(dependency), s -> s.size() >= services && all(s, 1));
    Promtool.Verdict quiet = Promtool.evaluates(alert, again, null);
    assertThat(quiet.exitCode()).as("no sample once it is back: " + quiet.output()).isZero();
  }

  private static boolean all(List<String> series, double value) {
    return series.stream()
        .allMatch(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)) == value);
  }

  /**
   * Each service's {@code trainyard_dependency_up} sample of {@code dependency}, labelled as the
   * chart's ServiceMonitors and Prometheus label it (job, instance, namespace).
   */
  private List<String> labelled(String dependency) {
    List<String> series = new ArrayList<>();
    for (String deployment : SERVICES) {
      for (ClusterHarness.Member member : cluster.members(deployment)) {
        String text;
        try {
          text = scrape(member.fields().get("management"));
        } catch (Exception | AssertionError e) {
          continue; // a pod restarting: the next round reads it
        }
        text.lines()
            .filter(
                l ->
                    l.startsWith("trainyard_dependency_up{")
                        && l.contains("dependency=\"" + dependency + "\""))
            .map(
                l ->
                    l.replaceFirst(
                        "\\{",
                        "{job=\""
                            + deployment
                            + "\",instance=\""
                            + member.name()
                            + "\",namespace=\"cluster\","))
            .forEach(series::add);
      }
    }
    return series;
  }

  /** The scrapes of every member of {@code deployment}. */
  private List<String> scrapes(String deployment) throws Exception {
    List<String> texts = new ArrayList<>();
    for (ClusterHarness.Member member : cluster.members(deployment)) {
      texts.add(scrape(member.fields().get("management")));
    }
    return texts;
  }

  /** The sum of the samples of {@code metric} (without labels) over {@code scrapes}. */
  private static double sum(List<String> scrapes, String metric) {
    return scrapes.stream()
        .flatMap(String::lines)
        .filter(l -> l.startsWith(metric + " ") || l.startsWith(metric + "{"))
        .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
        .sum();
  }

  /** {@code requests} reads of PR 1 sent at once; the statuses answered. */
  private static Set<Integer> burst(Api api, String name, int requests) {
    HttpClient http = HttpClient.newHttpClient();
    List<CompletableFuture<HttpResponse<Void>>> sent = new ArrayList<>();
    for (int i = 0; i < requests; i++) {
      sent.add(
          http.sendAsync(
              api.request("/v1/getSubmittedPullRequest")
                  .POST(HttpRequest.BodyPublishers.ofString(Api.prBody(name, 1)))
                  .build(),
              HttpResponse.BodyHandlers.discarding()));
    }
    Set<Integer> statuses = new HashSet<>();
    sent.forEach(f -> statuses.add(f.join().statusCode()));
    return statuses;
  }

  /** Every JSON line of the gateway's, the workers' and the dispatcher's log files, flattened. */
  private List<TraceFollower.LogLine> jsonLines() {
    List<TraceFollower.LogLine> lines = new ArrayList<>();
    for (String deployment : SERVICES.subList(0, 3)) {
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
      into.put(prefix, node.isValueNode() ? node.asString() : node.toString());
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

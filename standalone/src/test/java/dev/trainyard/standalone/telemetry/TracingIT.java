package dev.trainyard.standalone.telemetry;

import static dev.trainyard.standalone.support.QueueSteps.awaitState;
import static dev.trainyard.standalone.support.QueueSteps.create;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.trainyard.standalone.queue.QueueScenario;
import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.WebhookReceiver;
import dev.trainyard.worker.telemetry.OtlpReceiver;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * One request's trace in the standalone (the four services in one process, each its own Spring
 * context and its own OpenTelemetry resource), exported to an OTLP receiver on loopback.
 */
class TracingIT extends QueueScenario {
  private final OtlpReceiver otlp = new OtlpReceiver();
  private final WebhookReceiver webhooks = new WebhookReceiver();

  TracingIT() throws IOException {}

  @Override
  protected Map<String, Object> properties() {
    Map<String, Object> props = new HashMap<>(super.properties());
    props.putAll(tracedTo(otlp));
    return props;
  }

  /**
   * The settings that export every trace to {@code otlp}; the commands' lines need none: they are
   * at INFO, the default level.
   */
  static Map<String, String> tracedTo(OtlpReceiver otlp) {
    return Map.of(
        "management.opentelemetry.tracing.export.otlp.endpoint", otlp.endpoint(),
        "management.opentelemetry.tracing.export.schedule-delay", "200ms",
        "trainyard.tracing.sampling-probability", "1.0");
  }

  @AfterAll
  void closeReceivers() {
    otlp.close();
    webhooks.close();
  }

  @Test
  void oneSubmitIsOneTraceFromTheGatewayToTheWebhook() throws IOException {
    ListAppender<ILoggingEvent> logs = new ListAppender<>();
    Logger root = ((LoggerContext) LoggerFactory.getILoggerFactory()).getLogger("ROOT");
    logs.start();
    root.addAppender(logs);
    try {
      TraceFollower follower = new TraceFollower();
      TraceFollower.subscribe(api, webhooks);
      create(api, name, 1);
      git.openPr(1, "Add a", "ann", "a.txt", "a\n");
      follower.submit(api, name, 1);
      awaitState(api, name, 1, "merged");

      follower.followLogs(() -> lines(logs));
      follower.followSpans(otlp);
    } finally {
      root.detachAppender(logs);
    }
  }

  /**
   * A {@code traceparent} that is not one (garbage, an all-zero parent, ids too long) is ignored:
   * the request is answered as usual, under a trace of its own, and the header the response carries
   * is one the server formed, never the client's text.
   */
  @Test
  void aMalformedTraceparentStartsATraceOfItsOwn() {
    create(api, name, 1);
    for (String odd :
        List.of(
            "garbage",
            "00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01",
            "00-" + "a".repeat(64) + "-b7ad6b7169203331-01",
            "ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")) {
      Api.Response answer =
          api.send(
              api.request("/v1/getQueue")
                  .header("traceparent", odd)
                  .POST(HttpRequest.BodyPublishers.ofString(Api.body(name, ""))));
      assertThat(answer.status()).as(odd).isEqualTo(200);
      assertThat(answer.headers().firstValue("traceparent"))
          .as(odd)
          .hasValueSatisfying(
              t ->
                  assertThat(t)
                      .matches("00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}")
                      .doesNotContain("0af7651916cd43dd8448eb211c80319c"));
    }
  }

  /**
   * The standalone's one scrape (the gateway's management port) holds every service's trainyard
   * meters, and promtool has nothing to say of them.
   */
  @Test
  void theOneScrapeHoldsEveryServicesMetersAndPromtoolAcceptsThem() throws Exception {
    create(api, name, 1);
    git.openPr(1, "Add a", "ann", "a.txt", "a\n");
    new TraceFollower().submit(api, name, 1);
    awaitState(api, name, 1, "merged");
    String text =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create(
                            "http://127.0.0.1:"
                                + stack.services().gatewayManagementPort()
                                + "/actuator/prometheus"))
                    .build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    assertThat(Promtool.sampleNames(text))
        .contains(
            "trainyard_commands_total", // the worker's
            "trainyard_decide_store_seconds_bucket",
            "trainyard_command_round_trip_seconds_bucket", // the gateway's
            "trainyard_webhook_delivery_delay_seconds_count", // the dispatcher's
            "trainyard_flaky_test_cases_ingested_total", // the flaky-tests service's
            "trainyard_outbox_backlog",
            "trainyard_queues_overdue",
            "trainyard_webhook_deliveries_overdue_seconds",
            "trainyard_flaky_uploads_unfinished",
            "http_server_requests_seconds_bucket");
    assertThat(text)
        .as("the merged PR's time from submit")
        .containsPattern(
            "(?m)^trainyard_pull_requests_time_to_merge_seconds_count(\\{[^}]*})? [1-9][0-9]*(\\.0)?$");
    assertThat(topBucket(text, "trainyard_webhook_delivery_delay_seconds_bucket"))
        .as("a delivery's delay through its retries (hours), not capped at a minute")
        .isGreaterThan(24 * 3600.0);
    assertThat(topBucket(text, "trainyard_pull_requests_time_to_merge_seconds_bucket"))
        .isGreaterThan(3 * 24 * 3600.0);
    assertThat(topBucket(text, "trainyard_decide_store_seconds_bucket")).isEqualTo(60.0);
    Promtool.Verdict verdict = Promtool.checkMetrics(text);
    assertThat(verdict.exitCode()).as(verdict.output()).isIn(0, 3);
    assertThat(verdict.output().lines()).noneMatch(l -> l.contains("trainyard_"));
  }

  /** The largest finite {@code le} of a histogram's buckets in {@code exposition}. */
  private static double topBucket(String exposition, String bucket) {
    return Pattern.compile("(?m)^" + bucket + "\\{[^}]*le=\"([0-9.eE+]+)\"")
        .matcher(exposition)
        .results()
        .mapToDouble(m -> Double.parseDouble(m.group(1)))
        .max()
        .orElse(0);
  }

  /** The lines logged so far (the appender appends under its own lock). */
  private static List<TraceFollower.LogLine> lines(ListAppender<ILoggingEvent> logs) {
    List<ILoggingEvent> events;
    synchronized (logs) {
      events = List.copyOf(logs.list);
    }
    return events.stream()
        .map(
            e ->
                new TraceFollower.LogLine(
                    e.getLoggerName(), e.getMDCPropertyMap(), e.getFormattedMessage()))
        .toList();
  }
}

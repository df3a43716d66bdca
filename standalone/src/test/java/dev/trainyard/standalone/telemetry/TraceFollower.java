package dev.trainyard.standalone.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.telemetry.CommandLog;
import dev.trainyard.common.telemetry.LogFields;
import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.WebhookReceiver;
import dev.trainyard.worker.telemetry.OtlpReceiver;
import dev.trainyard.worker.telemetry.OtlpReceiver.ReceivedSpan;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import org.awaitility.Awaitility;
import org.slf4j.Logger;

/**
 * Follows one {@code submitPullRequest} from the client's {@code traceparent} to the webhook its
 * event becomes: the response names the trace the gateway started (a root span linking the client's
 * trace, not joining it); the gateway's, the worker's and the dispatcher's log lines for the
 * command carry its trace id (and the gateway's and the worker's its command id); the OTLP receiver
 * holds spans of the trace from all three services, the worker's decision a child of the gateway's
 * command span with its phases under it.
 */
public final class TraceFollower {
  static final Duration PATIENCE = Duration.ofSeconds(60);

  /** A log line: its logger and its fields (the trace's ids, organization, queue, command id). */
  public record LogLine(String logger, Map<String, String> fields, String message) {
    String field(String name) {
      return fields.getOrDefault(name, "");
    }
  }

  private final String clientTraceId = random(16);
  private final String parentId = random(8);

  /** The trace the gateway started for the submit (it links the client's, not joins it). */
  private String traceId;

  private long number;

  /** Subscribes {@code receiver} to the organization's {@code pull_request.submitted} events. */
  public static void subscribe(Api api, WebhookReceiver receiver) {
    Api.Response created =
        api.post(
            "/v1/webhooks/createEndpoint",
            "{\"url\":\"" + receiver.url() + "\",\"eventTypes\":[\"pull_request.submitted\"]}");
    assertThat(created.status()).as(created.body()).isEqualTo(200);
  }

  /** Submits PR {@code number} of {@code repo} under this follower's trace. */
  public void submit(Api api, String repo, long number) {
    this.number = number;
    Api.Response answer =
        api.send(
            api.request("/v1/submitPullRequest")
                .header("traceparent", "00-" + clientTraceId + "-" + parentId + "-01")
                .header("tracestate", "vendor=client-state")
                .POST(HttpRequest.BodyPublishers.ofString(Api.prBody(repo, number))));
    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    String traceparent = answer.headers().firstValue("traceparent").orElseThrow();
    assertThat(traceparent)
        .as("the response names a trace of trainyard's own, not the client's")
        .matches("00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}")
        .doesNotContain(clientTraceId);
    assertThat(Integer.parseInt(traceparent.substring(53), 16) & 1)
        .as("sampled (the stack samples every trace it starts)")
        .isEqualTo(1);
    traceId = traceparent.substring(3, 35);
  }

  /** Waits until the logs hold the three services' lines of the trace, and checks them. */
  public void followLogs(Supplier<List<LogLine>> logs) {
    List<LogLine> lines =
        Awaitility.await()
            .atMost(PATIENCE)
            .until(
                () -> logs.get().stream().filter(l -> traceId.equals(traceOf(l))).toList(),
                found ->
                    line(found, CommandLog.GATEWAY).isPresent()
                        && line(found, CommandLog.WORKER).isPresent()
                        && line(found, CommandLog.WEBHOOKS).isPresent());
    LogLine gateway = line(lines, CommandLog.GATEWAY).orElseThrow();
    LogLine worker = line(lines, CommandLog.WORKER).orElseThrow();
    LogLine dispatcher = line(lines, CommandLog.WEBHOOKS).orElseThrow();
    assertThat(gateway.field(LogFields.COMMAND_ID)).isNotBlank();
    assertThat(worker.field(LogFields.COMMAND_ID))
        .as("the worker's line names the gateway's command")
        .isEqualTo(gateway.field(LogFields.COMMAND_ID));
    assertThat(worker.field(LogFields.ORG)).isEqualTo(gateway.field(LogFields.ORG)).isNotBlank();
    assertThat(worker.field(LogFields.QUEUE)).isEqualTo(gateway.field(LogFields.QUEUE));
    assertThat(worker.field(LogFields.PR))
        .isEqualTo(gateway.field(LogFields.PR))
        .isEqualTo(Long.toString(number));
    assertThat(gateway.message()).startsWith("SubmitPullRequest answered: accepted");
    assertThat(worker.message()).isEqualTo("SubmitPullRequest decided and stored: applied");
    assertThat(dispatcher.field(LogFields.ORG)).isEqualTo(gateway.field(LogFields.ORG));
    assertThat(dispatcher.message()).contains("pull_request.submitted");
  }

  /** Waits until the receiver holds the trace's spans from the three services, and checks them. */
  public void followSpans(OtlpReceiver receiver) {
    List<ReceivedSpan> spans =
        Awaitility.await()
            .atMost(PATIENCE)
            .until(
                () -> receiver.trace(traceId),
                found ->
                    span(found, "trainyard-webhook-dispatcher", "webhook pull_request.submitted")
                            .isPresent()
                        && span(found, "trainyard-queue-worker", "worker SubmitPullRequest")
                            .isPresent()
                        && span(found, "trainyard-gateway", "command SubmitPullRequest")
                            .isPresent());
    ReceivedSpan command =
        span(spans, "trainyard-gateway", "command SubmitPullRequest").orElseThrow();
    ReceivedSpan decision =
        span(spans, "trainyard-queue-worker", "worker SubmitPullRequest").orElseThrow();
    ReceivedSpan delivery =
        span(spans, "trainyard-webhook-dispatcher", "webhook pull_request.submitted").orElseThrow();
    assertThat(command.attributes())
        .as("the command's span, by the messaging conventions and with trainyard's attributes")
        .containsEntry("messaging.system", "kafka")
        .containsEntry("messaging.operation.type", "send")
        .containsEntry("trainyard.pr", Long.toString(number))
        .containsKeys("messaging.destination.name", "trainyard.org", "trainyard.queue");
    assertThat(decision.attributes())
        .containsEntry("messaging.operation.type", "process")
        .containsEntry("trainyard.pr", Long.toString(number))
        .containsEntry("trainyard.queue", command.attributes().get("trainyard.queue"))
        .containsEntry(
            "messaging.destination.name", command.attributes().get("messaging.destination.name"));
    assertThat(decision.parentId())
        .as("the decision continues the command")
        .isEqualTo(command.spanId());
    assertThat(delivery.parentId())
        .as("the delivery continues the decision")
        .isEqualTo(decision.spanId());
    assertThat(
            spans.stream()
                .filter(s -> s.parentId().equals(decision.spanId()))
                .map(ReceivedSpan::name))
        .as("the decision's phases")
        .contains("decide", "store", "publish");
    assertThat(spans)
        .as("the request's own span starts the trace and links the client's")
        .anySatisfy(
            s -> {
              assertThat(s.service()).isEqualTo("trainyard-gateway");
              assertThat(s.parentId()).isEmpty();
              assertThat(s.links()).containsExactly(clientTraceId + "-" + parentId);
            });
  }

  private static Optional<LogLine> line(List<LogLine> lines, Logger logger) {
    return lines.stream().filter(l -> l.logger().equals(logger.getName())).findFirst();
  }

  private static Optional<ReceivedSpan> span(
      List<ReceivedSpan> spans, String service, String name) {
    return spans.stream()
        .filter(s -> s.service().equals(service) && s.name().equals(name))
        .findFirst();
  }

  /** The trace id a line carries, whatever its format names the field. */
  private static String traceOf(LogLine line) {
    for (String key : List.of("traceId", "trace.id", "trace_id")) {
      if (line.fields().containsKey(key)) {
        return line.fields().get(key);
      }
    }
    return null;
  }

  private static String random(int bytes) {
    byte[] id = new byte[bytes];
    ThreadLocalRandom.current().nextBytes(id);
    id[0] |= 1; // never all zero
    return HexFormat.of().formatHex(id);
  }
}

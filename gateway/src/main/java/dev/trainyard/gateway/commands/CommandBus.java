package dev.trainyard.gateway.commands;

import dev.trainyard.common.command.CommandEnvelope;
import dev.trainyard.common.command.CommandReply;
import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.telemetry.CommandLog;
import dev.trainyard.common.telemetry.LogFields;
import dev.trainyard.common.telemetry.Traces;
import dev.trainyard.common.topic.TopicNames;
import dev.trainyard.gateway.config.GatewayProperties;
import dev.trainyard.gateway.http.ApiException;
import dev.trainyard.gateway.idempotency.CommandIds;
import dev.trainyard.gateway.telemetry.RequestSpans;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.tracing.Span;
import java.time.Instant;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.TimeoutException;
import org.springframework.http.HttpStatus;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.util.context.ContextView;

/**
 * Sends a command on its queue's key and waits for the worker's reply. No reply in time is a 503:
 * the command may still be applied later, and the client is told to retry (re-submission is
 * idempotent).
 *
 * <p>Each command is a span of the request's trace (its {@code traceparent} travels in the
 * envelope, so the worker's decision continues it), a DEBUG line when sent and when answered (with
 * the trace's ids, organization, queue and command id), and a {@code trainyard.command.round.trip}
 * timing by command type and outcome.
 */
@Component
public class CommandBus {
  private final KafkaTemplate<String, String> kafka;
  private final TopicNames topics;
  private final ReplyRouter replies;
  private final GatewayProperties props;
  private final Traces traces;
  private final MeterRegistry meters;

  public CommandBus(
      KafkaTemplate<String, String> kafka,
      TopicNames topics,
      ReplyRouter replies,
      GatewayProperties props,
      Traces traces,
      MeterRegistry meters) {
    this.kafka = kafka;
    this.topics = topics;
    this.replies = replies;
    this.props = props;
    this.traces = traces;
    this.meters = meters;
  }

  /**
   * Sends the command under a fresh id, or, in a request with an idempotency key, under the id a
   * retry of that request sends it with too ({@link CommandIds}).
   */
  public Mono<CommandReply> send(QueueKey key, QueueCommand command) {
    return Mono.deferContextual(context -> send(key, command, CommandIds.next(context)));
  }

  /**
   * Sends the command under {@code commandId}: the worker applies one id once, so a command sent
   * again with the same id (a redelivered webhook) has no second effect.
   */
  public Mono<CommandReply> send(QueueKey key, QueueCommand command, String commandId) {
    return Mono.deferContextual(context -> traced(key, command, commandId, context));
  }

  private Mono<CommandReply> traced(
      QueueKey key, QueueCommand command, String commandId, ContextView context) {
    String type = command.getClass().getSimpleName();
    Span request = RequestSpans.of(context);
    Span span =
        traces.start("command " + type, traces.traceparent(request), Span.Kind.PRODUCER, null);
    Traces.command(
        span, "send", topics.commands(), key, QueueCommand.pullRequestOf(command), commandId);
    String correlationId = UUID.randomUUID().toString();
    CommandEnvelope envelope =
        new CommandEnvelope(
            commandId,
            correlationId,
            key,
            Instant.now(),
            command,
            replies.partition(),
            traces.traceparent(span));
    String json = Json.mapper().writeValueAsString(envelope);
    Timer.Sample sample = Timer.start(meters);
    String[] outcome = {"error"};
    return Mono.defer(
            () -> {
              var reply = replies.expect(correlationId);
              // send() may block for metadata while the broker is away: keep it off the event loop.
              return Mono.fromFuture(() -> kafka.send(topics.commands(), key.id(), json))
                  .subscribeOn(Schedulers.boundedElastic())
                  .then(Mono.fromFuture(reply))
                  // the reply consumer's one thread completes every reply: the answer's own work
                  // (audit write, response, log line) goes elsewhere, or replies queue behind it
                  .publishOn(Schedulers.parallel());
            })
        .timeout(props.replyTimeout())
        .doOnNext(r -> outcome[0] = outcome(r))
        .onErrorMap(
            TimeoutException.class,
            e -> {
              outcome[0] = "timeout";
              return ApiException.unavailable(
                  "the queue worker did not confirm the command in time; it may still be applied, retry the request");
            })
        .doFinally(
            signal -> {
              replies.forget(correlationId);
              answered(span, key, command, commandId, outcome[0], sample);
              span.tag("outcome", outcome[0]);
              if (outcome[0].equals("error") || outcome[0].equals("timeout")) {
                span.error(new IllegalStateException("the command's outcome: " + outcome[0]));
              }
              span.end();
            });
  }

  private static String outcome(CommandReply reply) {
    return reply.isAccepted() ? "accepted" : reply.rejection().name().toLowerCase(Locale.ROOT);
  }

  /**
   * The command's round trip, timed, and its line in {@link CommandLog#GATEWAY} with the span in
   * scope and the command's fields.
   */
  private void answered(
      Span span,
      QueueKey key,
      QueueCommand command,
      String commandId,
      String outcome,
      Timer.Sample sample) {
    String type = command.getClass().getSimpleName();
    long nanos =
        sample.stop(meters.timer("trainyard.command.round.trip", "type", type, "outcome", outcome));
    if (CommandLog.GATEWAY.isInfoEnabled()) {
      try (var scope = traces.inScope(span);
          var fields = LogFields.of(key, commandId, QueueCommand.pullRequestOf(command))) {
        CommandLog.GATEWAY.info("{} answered: {} in {} ms", type, outcome, nanos / 1_000_000);
      }
    }
  }

  /** Sends the command and turns a rejection into the status code of API.md. */
  public Mono<Void> sendExpectingAcceptance(QueueKey key, QueueCommand command) {
    return send(key, command)
        .flatMap(reply -> reply.isAccepted() ? Mono.empty() : Mono.error(toError(reply)));
  }

  /** The status code of API.md for a rejection. */
  static ApiException toError(CommandReply reply) {
    HttpStatus status =
        switch (reply.rejection()) {
          case NOT_FOUND -> HttpStatus.NOT_FOUND;
          case INVALID_STATE -> HttpStatus.BAD_REQUEST;
          case CONFLICT -> HttpStatus.CONFLICT;
          case LIMIT_REACHED -> HttpStatus.TOO_MANY_REQUESTS;
          case FAULT -> HttpStatus.INTERNAL_SERVER_ERROR;
        };
    return new ApiException(status, reply.message());
  }
}

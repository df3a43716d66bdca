package dev.trainyard.gateway.commands;

import dev.trainyard.common.command.CommandEnvelope;
import dev.trainyard.common.command.CommandReply;
import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.topic.Topics;
import dev.trainyard.gateway.config.GatewayProperties;
import dev.trainyard.gateway.http.ApiException;
import dev.trainyard.gateway.idempotency.CommandIds;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.TimeoutException;
import org.springframework.http.HttpStatus;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Sends a command on its queue's key and waits for the worker's reply. No reply in time is a 503:
 * the command may still be applied later, and the client is told to retry (re-submission is
 * idempotent).
 */
@Component
public class CommandBus {
  private final KafkaTemplate<String, String> kafka;
  private final ReplyRouter replies;
  private final GatewayProperties props;

  public CommandBus(
      KafkaTemplate<String, String> kafka, ReplyRouter replies, GatewayProperties props) {
    this.kafka = kafka;
    this.replies = replies;
    this.props = props;
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
    String correlationId = UUID.randomUUID().toString();
    CommandEnvelope envelope =
        new CommandEnvelope(
            commandId, correlationId, key, Instant.now(), command, replies.partition());
    String json = Json.mapper().writeValueAsString(envelope);
    return Mono.defer(
            () -> {
              var reply = replies.expect(correlationId);
              // send() may block for metadata while the broker is away: keep it off the event loop.
              return Mono.fromFuture(() -> kafka.send(Topics.QUEUE_COMMANDS, key.id(), json))
                  .subscribeOn(Schedulers.boundedElastic())
                  .then(Mono.fromFuture(reply));
            })
        .timeout(props.replyTimeout())
        .onErrorMap(
            TimeoutException.class,
            e ->
                ApiException.unavailable(
                    "the queue worker did not confirm the command in time; it may still be applied, retry the request"))
        .doFinally(signal -> replies.forget(correlationId));
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

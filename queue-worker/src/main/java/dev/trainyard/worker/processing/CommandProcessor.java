package dev.trainyard.worker.processing;

import dev.trainyard.common.command.CommandEnvelope;
import dev.trainyard.common.command.CommandReply;
import dev.trainyard.common.event.PullRequestEvent;
import dev.trainyard.common.json.Json;
import dev.trainyard.worker.engine.CommandContext;
import dev.trainyard.worker.engine.Decision;
import dev.trainyard.worker.engine.EventApplier;
import dev.trainyard.worker.engine.QueueAggregate;
import dev.trainyard.worker.engine.QueueEngine;
import dev.trainyard.worker.engine.QueueEvent;
import dev.trainyard.worker.projection.PublicEvents;
import dev.trainyard.worker.projection.RowProjector;
import dev.trainyard.worker.projection.Views;
import dev.trainyard.worker.store.HistoryStore;
import dev.trainyard.worker.store.OutboxEvent;
import dev.trainyard.worker.store.QueueStore;
import dev.trainyard.worker.store.RecentCommand;
import dev.trainyard.worker.store.StoredQueue;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Handles one command: load, de-duplicate, decide, store (one atomic versioned write holding the
 * new state, its view and its outbox), publish the outbox, reply. A crash anywhere before the
 * offset commit leads to a redelivery that finds the command id recorded and only finishes the
 * publishing and the reply.
 */
public class CommandProcessor {
  private static final int MAX_WRITE_ATTEMPTS = 16;

  private final QueueEngine engine = new QueueEngine();
  private final QueueStore store;
  private final HistoryStore history;
  private final Publisher publisher;
  private final PublicEvents publicEvents;
  private final InstantSource clock;
  private final ProcessingProbe probe;

  public CommandProcessor(
      QueueStore store,
      HistoryStore history,
      Publisher publisher,
      PublicEvents publicEvents,
      InstantSource clock,
      ProcessingProbe probe) {
    this.store = store;
    this.history = history;
    this.publisher = publisher;
    this.publicEvents = publicEvents;
    this.clock = clock;
    this.probe = probe;
  }

  public void process(CommandEnvelope envelope) {
    String id = envelope.queue().id();
    for (int attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
      StoredQueue current = store.load(id).orElse(StoredQueue.absent(id, envelope.queue().org()));
      publishOutbox(current);
      if (current.hasApplied(envelope.commandId())) {
        reply(envelope, CommandReply.accepted(envelope.correlationId(), envelope.commandId()));
        return;
      }
      CommandContext ctx = new CommandContext(envelope.commandId(), clock.instant());
      Decision decision =
          engine.decide(current.aggregate(), envelope.queue(), envelope.command(), ctx);
      if (!decision.isAccepted() || decision.events().isEmpty()) {
        reply(envelope, replyFor(envelope, decision));
        return;
      }
      StoredQueue next = next(current, envelope, decision, ctx);
      if (store.save(next, current.version())) {
        probe.afterStore(envelope);
        publishOutbox(next);
        reply(envelope, replyFor(envelope, decision));
        return;
      }
    }
    throw new IllegalStateException("queue " + id + " kept changing under us; will retry");
  }

  private StoredQueue next(
      StoredQueue current, CommandEnvelope envelope, Decision decision, CommandContext ctx) {
    long version = current.version() + 1;
    QueueAggregate state = current.aggregate();
    List<OutboxEvent> events = new ArrayList<>();
    for (QueueEvent event : decision.events()) {
      state = EventApplier.apply(state, event);
      Optional<PullRequestEvent> body =
          state == null ? Optional.empty() : publicEvents.toPublic(state, event, ctx.now());
      if (body.isPresent()) {
        String eventId = ctx.commandId() + "/" + events.size();
        events.add(
            new OutboxEvent(
                UUID.nameUUIDFromBytes(eventId.getBytes(java.nio.charset.StandardCharsets.UTF_8))
                    .toString(),
                body.get().type(),
                Json.mapper().writeValueAsString(body.get())));
      }
    }
    List<RecentCommand> recent = new ArrayList<>();
    recent.add(new RecentCommand(envelope.commandId()));
    recent.addAll(
        current
            .recent()
            .subList(0, Math.min(current.recent().size(), StoredQueue.RECENT_COMMANDS - 1)));
    return new StoredQueue(
        current.id(),
        current.org(),
        version,
        state,
        state == null ? null : Views.queue(state),
        engine.nextDeadline(state).orElse(null),
        recent,
        RowProjector.changedRows(current.aggregate(), state, version),
        events);
  }

  private void publishOutbox(StoredQueue queue) {
    if (!queue.hasOutbox()) {
      return;
    }
    history.write(queue.rows());
    publisher.events(queue.id(), queue.org(), queue.events());
    store.outboxPublished(queue.id(), queue.version());
  }

  private void reply(CommandEnvelope envelope, CommandReply reply) {
    if (envelope.correlationId() != null) {
      publisher.reply(reply);
    }
  }

  private static CommandReply replyFor(CommandEnvelope envelope, Decision decision) {
    return decision.isAccepted()
        ? CommandReply.accepted(envelope.correlationId(), envelope.commandId())
        : new CommandReply(
            envelope.correlationId(),
            envelope.commandId(),
            decision.rejection().type(),
            decision.rejection().message());
  }
}

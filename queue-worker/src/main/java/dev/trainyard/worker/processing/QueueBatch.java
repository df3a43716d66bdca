package dev.trainyard.worker.processing;

import dev.trainyard.common.command.CommandEnvelope;
import dev.trainyard.common.command.CommandReply;
import dev.trainyard.common.command.DeadCommand;
import dev.trainyard.common.command.RejectionType;
import dev.trainyard.common.event.PublicEvent;
import dev.trainyard.common.event.PullRequestEvent;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.queue.PrState;
import dev.trainyard.common.view.PullRequestRow;
import dev.trainyard.worker.engine.CommandContext;
import dev.trainyard.worker.engine.Decision;
import dev.trainyard.worker.engine.Effects;
import dev.trainyard.worker.engine.EventApplier;
import dev.trainyard.worker.engine.QueueAggregate;
import dev.trainyard.worker.engine.QueueEngine;
import dev.trainyard.worker.engine.QueueEvent;
import dev.trainyard.worker.projection.PublicEvents;
import dev.trainyard.worker.projection.RowProjector;
import dev.trainyard.worker.projection.RunViews;
import dev.trainyard.worker.projection.Views;
import dev.trainyard.worker.store.Answer;
import dev.trainyard.worker.store.Outbox;
import dev.trainyard.worker.store.OutboxEvent;
import dev.trainyard.worker.store.QueueStalls;
import dev.trainyard.worker.store.QueueTooLarge;
import dev.trainyard.worker.store.RecentCommand;
import dev.trainyard.worker.store.StoredQueue;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * The commands of one queue from one poll, decided in order against the stored queue. The result is
 * the next queue document when some command changed the queue (one version step for the whole
 * batch, with the read-model view and the outbox), an {@link Answer} per command and a reply per
 * command that waits for one. No I/O.
 *
 * <p>Every command handled is answered once: one answered before (a redelivery, a client's retry, a
 * duplicate in the same poll) is answered as it was then, never decided again — applied, rejected
 * or a no-op alike. Decided again on a later version, a no-op resubmit after the cancel that
 * followed it would queue its PR again, a "not found" cancel after the submit that followed it
 * would cancel that PR.
 *
 * <p>A command whose decision throws leaves the queue as it was before it and becomes a {@link
 * DeadCommand}: its answer is a {@link RejectionType#FAULT} (a redelivery does not throw again),
 * and the commands after it are decided as usual.
 */
final class QueueBatch {
  private static final Logger log = LoggerFactory.getLogger(QueueBatch.class);
  private final StoredQueue before;
  private final List<Publisher.Reply> replies = new ArrayList<>();
  private final List<CommandEnvelope> applied = new ArrayList<>();
  private final List<CommandEnvelope> decided = new ArrayList<>();
  private final List<OutboxEvent> events = new ArrayList<>();
  private final List<DeadCommand> dead = new ArrayList<>();

  /** From submit to merge, for each PR this batch merged. */
  private final List<Duration> timesToMerge = new ArrayList<>();

  /** What became of each command of the batch, in order: see {@link Outcome}. */
  private final List<Concluded> outcomes = new ArrayList<>();

  /** A command and what became of it. */
  record Concluded(CommandEnvelope envelope, Outcome outcome) {}

  /** What became of a command (the label of {@code trainyard.commands}). */
  enum Outcome {
    APPLIED,
    REJECTED,
    DEDUPLICATED,
    DEAD,
    /** An effect result of a previous owner's epoch, refused undecided ({@link Fence}). */
    FENCED;

    String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** Where the events a command causes find the trace they continue. */
  private final Function<CommandEnvelope, String> traceparents;

  /** The first answer to each command of this batch: a duplicate in the same poll gets the same. */
  private final Map<String, CommandReply> answers = new HashMap<>();

  private QueueAggregate state;

  private final Instant now;

  private QueueBatch(
      StoredQueue before, Instant now, Function<CommandEnvelope, String> traceparents) {
    this.before = before;
    this.now = now;
    this.traceparents = traceparents;
    this.state = before.aggregate();
  }

  /**
   * Decides {@code envelopes} in order; those with an answer in {@code remembered} (by command id)
   * are answered from it. A command named in {@code condemned} is not decided: it is dead with the
   * given error (its result could not be stored before). The events of a command carry the trace
   * {@code traceparents} gives for it.
   */
  static QueueBatch decide(
      StoredQueue before,
      List<CommandEnvelope> envelopes,
      Map<String, Answer> remembered,
      Decider decider,
      Map<String, RuntimeException> condemned,
      Instant now,
      Function<CommandEnvelope, String> traceparents) {
    QueueBatch batch = new QueueBatch(before, now, traceparents);
    for (CommandEnvelope envelope : envelopes) {
      Answer answered = remembered.get(envelope.commandId());
      Optional<RecentCommand> legacy = before.handled(envelope.commandId());
      CommandReply earlier = batch.answers.get(envelope.commandId());
      if (answered != null || legacy.isPresent()) {
        // a redelivery or a retry: handled before, answered the same way
        batch.answerAgain(
            envelope,
            answered != null ? answered : legacy.get().asAnswer(before.id(), before.version()));
        batch.outcomes.add(new Concluded(envelope, Outcome.DEDUPLICATED));
        continue;
      }
      if (earlier != null) {
        batch.answer(
            envelope,
            new CommandReply(
                envelope.correlationId(),
                envelope.commandId(),
                earlier.rejection(),
                earlier.message()));
        batch.outcomes.add(new Concluded(envelope, Outcome.DEDUPLICATED));
        continue;
      }
      batch.decided.add(envelope);
      RuntimeException failure = condemned.get(envelope.commandId());
      if (failure instanceof QueueTooLarge tooLarge) {
        batch.refuse(envelope, tooLarge);
        continue;
      }
      if (failure == null) {
        failure = batch.tryDecide(envelope, decider, now);
      }
      if (failure != null) {
        batch.dead.add(DeadCommand.of(envelope, failure, now));
        batch.answer(envelope, CommandReply.fault(envelope));
        batch.outcomes.add(new Concluded(envelope, Outcome.DEAD));
      }
    }
    return batch;
  }

  /** The engine and what it takes besides the state: the probe and the public-event mapping. */
  record Decider(QueueEngine engine, PublicEvents publicEvents, ProcessingProbe probe) {}

  /**
   * Decides and applies one command; on an exception the batch is left as it was before it.
   *
   * @return null, or what the command threw
   */
  private RuntimeException tryDecide(CommandEnvelope envelope, Decider decider, Instant now) {
    QueueAggregate stateBefore = state;
    int eventsBefore = events.size();
    try {
      decider.probe().beforeDecide(envelope);
      CommandContext ctx = new CommandContext(envelope.commandId(), now);
      Decision decision = decider.engine().decide(state, envelope.queue(), envelope.command(), ctx);
      if (decision.unsettled()) {
        log.error(
            "The planning rules did not settle after command {} ({}) on queue {}: the command's"
                + " own events were applied without planning; the next command plans again."
                + " This is a bug of trainyard's engine; please report it with this line.",
            envelope.commandId(),
            envelope.command().getClass().getSimpleName(),
            envelope.queue());
      }
      if (decision.isAccepted() && !decision.events().isEmpty()) {
        apply(decision.events(), ctx, decider.publicEvents(), traceparents.apply(envelope));
        applied.add(envelope);
      }
      reply(envelope, decision);
      outcomes.add(
          new Concluded(envelope, decision.isAccepted() ? Outcome.APPLIED : Outcome.REJECTED));
      return null;
    } catch (RuntimeException e) {
      state = stateBefore;
      events.subList(eventsBefore, events.size()).clear();
      return e;
    }
  }

  /**
   * A command whose result would not fit the queue's document: answered as a limit reached (its
   * client may retry once there is room under a new key; a redelivery is answered the same way);
   * the queue stays as it was.
   */
  private void refuse(CommandEnvelope envelope, QueueTooLarge tooLarge) {
    answer(
        envelope,
        new CommandReply(
            envelope.correlationId(),
            envelope.commandId(),
            RejectionType.LIMIT_REACHED,
            tooLarge.reason()));
    outcomes.add(new Concluded(envelope, Outcome.REJECTED));
  }

  /** True when some command changed the queue, so there is a new version to store. */
  boolean changed() {
    return !applied.isEmpty();
  }

  /**
   * The answers this batch gave to the commands it handled (not those answered before), under the
   * version they belong to: the one it writes, or, when it writes none, the one it decided on.
   */
  List<Answer> answers() {
    long version = changed() ? before.version() + 1 : before.version();
    return decided.stream()
        .map(
            e -> {
              CommandReply reply = answers.get(e.commandId());
              return new Answer(
                  e.commandId(),
                  before.id(),
                  version,
                  reply.rejection(),
                  reply.rejection() == null ? null : reply.message(),
                  now);
            })
        .toList();
  }

  /** Every command this batch handled without an earlier answer, in order. */
  List<CommandEnvelope> handled() {
    return decided;
  }

  List<CommandEnvelope> applied() {
    return applied;
  }

  /** What became of each command, in the order decided. */
  List<Concluded> outcomes() {
    return outcomes;
  }

  List<Publisher.Reply> replies() {
    return replies;
  }

  /** The commands of this batch that could not be applied. */
  List<DeadCommand> dead() {
    return dead;
  }

  StoredQueue before() {
    return before;
  }

  /** The queue after the batch (null when it does not exist). */
  QueueAggregate state() {
    return state;
  }

  /**
   * What a changed batch writes: the next queue document and the outbox it names, and how long each
   * PR it merged took from its submit.
   */
  record Written(StoredQueue queue, Outbox outbox, List<Duration> timesToMerge) {}

  /**
   * The documents to store: one version after {@code before}. Its outbox carries the answers of
   * this batch, and those the queue document still held from before answers had a collection of
   * their own (the document no longer holds any).
   */
  Written next(QueueEngine engine, RunViews runViews) {
    long version = before.version() + 1;
    List<Answer> answered = new ArrayList<>(answers());
    before.recent().forEach(r -> answered.add(r.asAnswer(before.id(), before.version())));
    Map<Long, String> reasons = reasons(events);
    List<PullRequestRow> rows =
        RowProjector.changedRows(before.aggregate(), state, version, before.rowVersions()).stream()
            .map(r -> r.withReason(reasons.get(r.prNumber())))
            .toList();
    Outbox outbox =
        new Outbox(
            Outbox.newId(before.id(), version),
            before.id(),
            before.org(),
            version,
            rows,
            runViews.changed(before.aggregate(), state),
            events,
            answered);
    StoredQueue queue =
        new StoredQueue(
            before.id(),
            before.org(),
            version,
            state,
            state == null ? null : Views.queue(state, now),
            engine.nextDeadline(state, now).orElse(null),
            List.of(),
            outbox.id(),
            RowProjector.rowVersions(state, before.rowVersions(), rows),
            state == null ? 0 : state.entries().size(),
            !Effects.of(state).isEmpty(),
            before.entryTags(),
            QueueStalls.waitingSince(before, state, events, now));
    return new Written(queue, outbox, List.copyOf(timesToMerge));
  }

  /** The reason code of each PR's last {@code pull_request.*} event in this version. */
  private static Map<Long, String> reasons(List<OutboxEvent> events) {
    Map<Long, String> reasons = new HashMap<>();
    for (OutboxEvent e : events) {
      if (e.type().startsWith("pull_request.")) {
        JsonNode body = Json.mapper().readTree(e.body());
        for (String field : REASON_FIELDS) {
          if (body.hasNonNull(field)) {
            reasons.put(body.get("pr_number").asLong(), body.get(field).asString());
          }
        }
      }
    }
    return reasons;
  }

  private static final List<String> REASON_FIELDS =
      List.of(
          "submitted_reason",
          "queued_reason",
          "failure_reason",
          "cancellation_reason",
          "merged_reason");

  private void apply(
      List<QueueEvent> decided, CommandContext ctx, PublicEvents publicEvents, String traceparent) {
    int index = 0;
    for (QueueEvent event : decided) {
      state = EventApplier.apply(state, event);
      List<PublicEvent> bodies =
          state == null ? List.of() : publicEvents.toPublic(state, event, ctx.now());
      for (PublicEvent body : bodies) {
        if (body instanceof PullRequestEvent pr && pr.type().equals("pull_request.merged")) {
          timeToMerge(pr.prNumber()).ifPresent(timesToMerge::add);
        }
        // derived from the command, so a re-decided command publishes under the same id
        String id = ctx.commandId() + "/" + index++;
        events.add(
            new OutboxEvent(
                UUID.nameUUIDFromBytes(id.getBytes(StandardCharsets.UTF_8)).toString(),
                body.type(),
                Json.mapper().writeValueAsString(body),
                traceparent));
      }
    }
  }

  /** How long the PR just merged as {@code prNumber} took from its submit. */
  private Optional<Duration> timeToMerge(long prNumber) {
    return state.concluded().stream()
        .filter(e -> e.prNumber() == prNumber && e.state() == PrState.MERGED)
        .findFirst() // the newest conclusion comes first
        .filter(e -> e.submittedAt() != null)
        .map(e -> Duration.between(e.submittedAt(), now));
  }

  /** Answers a command handled before as it was answered then. */
  private void answerAgain(CommandEnvelope envelope, Answer then) {
    if (then.rejection() == null) {
      answer(envelope, CommandReply.accepted(envelope.correlationId(), envelope.commandId()));
    } else if (then.rejection() == RejectionType.FAULT) {
      answer(envelope, CommandReply.fault(envelope));
    } else {
      answer(
          envelope,
          new CommandReply(
              envelope.correlationId(),
              envelope.commandId(),
              then.rejection(),
              then.message() != null
                  ? then.message()
                  : "command " + envelope.commandId() + " was refused when it first arrived"));
    }
  }

  private void reply(CommandEnvelope envelope, Decision decision) {
    answer(
        envelope,
        decision.isAccepted()
            ? CommandReply.accepted(envelope.correlationId(), envelope.commandId())
            : new CommandReply(
                envelope.correlationId(),
                envelope.commandId(),
                decision.rejection().type(),
                decision.rejection().message()));
  }

  /** Records the first answer to a command, and sends it when someone waits for it. */
  private void answer(CommandEnvelope envelope, CommandReply reply) {
    answers.putIfAbsent(envelope.commandId(), reply);
    if (envelope.correlationId() != null) {
      replies.add(Publisher.Reply.to(envelope, reply));
    }
  }
}

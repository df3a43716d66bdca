package dev.trainyard.worker.processing;

import dev.trainyard.common.command.CommandEnvelope;
import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.telemetry.CommandLog;
import dev.trainyard.common.telemetry.LogFields;
import dev.trainyard.common.telemetry.Traces;
import dev.trainyard.worker.store.OutboxEvent;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a poll of commands reports. Each command is a span continuing its sender's trace, from the
 * poll's start to its reply on the broker, with the phases of the poll as children: {@code decide}
 * (its queue's batch), {@code store} and {@code publish} (shared by the poll's queues). Each
 * concluded command counts in {@code trainyard.commands} by type and outcome and gets a log line
 * with the trace's ids, organization, queue and command id (DEBUG; WARN for a dead one). The poll's
 * whole time is {@code trainyard.decide.store}; the pull requests its stored versions concluded
 * count in {@code trainyard.pull.requests.concluded} by conclusion, and those merged give their
 * time from submit in {@code trainyard.pull.requests.time.to.merge} (reported, not alerted on: it
 * is mostly CI's time).
 */
public final class PollTelemetry {
  private static final Logger log = LoggerFactory.getLogger(PollTelemetry.class);
  private final Traces traces;
  private final MeterRegistry meters;
  private final Timer pollTime;
  private final Timer timeToMerge;
  private final String topic;
  // not "canceled": that event also says a run was canceled and its PRs queued again, which
  // concludes nothing (it listed "cancelled", which no event is called, and so counted none)
  private static final Set<String> CONCLUSIONS =
      Set.of("pull_request.merged", "pull_request.failed");

  /** Reports to {@code meters}; {@code topic} names the command topic in the commands' spans. */
  public PollTelemetry(Traces traces, MeterRegistry meters, String topic) {
    this.traces = traces;
    this.topic = topic;
    this.meters = meters;
    this.pollTime =
        Timer.builder("trainyard.decide.store")
            .description("one poll of queue commands: decide, store, publish, reply")
            .publishPercentileHistogram()
            .register(meters);
    this.timeToMerge =
        Timer.builder("trainyard.pull.requests.time.to.merge")
            .description("from a pull request's submit to its merge, for each one merged")
            .publishPercentileHistogram()
            .minimumExpectedValue(Duration.ofSeconds(1))
            .maximumExpectedValue(Duration.ofDays(7))
            .register(meters);
  }

  /** Reports nothing (tests that build a processor by hand). */
  public static PollTelemetry off() {
    return new PollTelemetry(Traces.off(), new SimpleMeterRegistry(), null);
  }

  /** Makes {@code span} current until the scope closes (nothing when there is none). */
  Tracer.SpanInScope inScope(Span span) {
    return traces.inScope(span);
  }

  Poll begin(List<CommandEnvelope> envelopes) {
    return new Poll(envelopes);
  }

  /** When a phase of the poll ran. */
  private record Window(Instant from, Instant to) {
    static Window until(Instant from) {
      return new Window(from, Instant.now());
    }
  }

  /** One poll: its commands' spans and the times of its phases. */
  final class Poll {
    private final Instant start = Instant.now();
    private final long startNanos = System.nanoTime();
    private final Map<String, Span> spans = new HashMap<>();
    private final Map<String, Window> decided = new HashMap<>();
    private final List<QueueBatch.Concluded> concluded = new ArrayList<>();
    private Window stored;
    private Window published;

    private Poll(List<CommandEnvelope> envelopes) {
      for (CommandEnvelope e : envelopes) {
        spans.computeIfAbsent(e.commandId(), id -> started(e));
      }
    }

    private Span started(CommandEnvelope e) {
      Span span =
          traces.start(
              "worker " + e.command().getClass().getSimpleName(),
              e.traceparent(),
              Span.Kind.CONSUMER,
              start);
      Traces.command(
          span,
          "process",
          topic,
          e.queue(),
          QueueCommand.pullRequestOf(e.command()),
          e.commandId());
      return span;
    }

    /** The trace a command's events continue. */
    String traceparent(CommandEnvelope envelope) {
      return traces.traceparent(spans.get(envelope.commandId()));
    }

    /** The span of a command, to run what follows from it in its scope. */
    Span span(CommandEnvelope envelope) {
      return spans.get(envelope.commandId());
    }

    void decided(String queueId, Instant from) {
      decided.put(queueId, Window.until(from));
    }

    void stored(Instant from) {
      stored = Window.until(from);
    }

    void published(Instant from) {
      published = Window.until(from);
    }

    /** The commands of a batch whose result is stored (or that wrote nothing). */
    void concluded(QueueBatch batch) {
      concluded.addAll(batch.outcomes());
    }

    /** Counts the conclusions among the events of stored versions, and times the merges. */
    void published(List<QueueBatch.Written> written) {
      for (QueueBatch.Written w : written) {
        w.timesToMerge().forEach(timeToMerge::record);
        for (OutboxEvent e : w.outbox().events()) {
          if (CONCLUSIONS.contains(e.type())) {
            meters
                .counter(
                    "trainyard.pull.requests.concluded",
                    "conclusion",
                    e.type().substring("pull_request.".length()))
                .increment();
          }
        }
      }
    }

    /** A command not decided at all (too old to apply): dead. */
    void dead(CommandEnvelope envelope) {
      concluded.add(new QueueBatch.Concluded(envelope, QueueBatch.Outcome.DEAD));
    }

    /** An effect result refused undecided: a previous owner started its effect ({@link Fence}). */
    void fenced(CommandEnvelope envelope) {
      concluded.add(new QueueBatch.Concluded(envelope, QueueBatch.Outcome.FENCED));
    }

    /** Counts, logs and ends every span of the poll. */
    void end() {
      Instant end = Instant.now();
      pollTime.record(Duration.ofNanos(System.nanoTime() - startNanos));
      for (QueueBatch.Concluded c : concluded) {
        CommandEnvelope e = c.envelope();
        String type = e.command().getClass().getSimpleName();
        String outcome = c.outcome().label();
        meters.counter("trainyard.commands", "type", type, "outcome", outcome).increment();
        Span span = spans.remove(e.commandId());
        if (span == null) {
          continue; // the same command twice in one poll: its first conclusion ended the span
        }
        phase(span, "decide", decided.get(e.queue().id()));
        phase(span, "store", stored);
        phase(span, "publish", published);
        span.tag("outcome", outcome);
        logLine(span, e, type, c.outcome());
        Traces.end(span, end);
      }
      spans.values().forEach(s -> Traces.end(s, end)); // not concluded: the poll failed
    }

    private void phase(Span span, String name, Window times) {
      if (times != null) {
        traces.phase(span, name, times.from(), times.to());
      }
    }

    /**
     * The command's line: WARN when it is kept dead; else INFO in {@link CommandLog#WORKER} for a
     * client's command (one the gateway awaits a reply to), DEBUG for the worker's own signals.
     */
    private void logLine(Span span, CommandEnvelope e, String type, QueueBatch.Outcome outcome) {
      boolean dead = outcome == QueueBatch.Outcome.DEAD;
      boolean client = e.replyPartition() != null;
      if (dead
          || (client && CommandLog.WORKER.isInfoEnabled())
          || (!client && CommandLog.WORKER.isDebugEnabled())) {
        try (var scope = traces.inScope(span);
            var fields =
                LogFields.of(e.queue(), e.commandId(), QueueCommand.pullRequestOf(e.command()))) {
          if (dead) {
            span.error(new IllegalStateException("kept as a dead command"));
            log.warn("{} {}: dead, kept for replay", type, e.commandId());
          } else if (client) {
            CommandLog.WORKER.info("{} decided and stored: {}", type, outcome.label());
          } else {
            CommandLog.WORKER.debug("{} decided and stored: {}", type, outcome.label());
          }
        }
      }
    }
  }
}

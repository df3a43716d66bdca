package dev.trainyard.common.telemetry;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.config.MeterFilter;
import java.util.Map;

/**
 * The help text of every meter trainyard names itself, in one place: a filter fills in the
 * description of a meter registered without one, so every family of a scrape has its {@code # HELP}
 * line (promtool's check) however the meter was created.
 */
public final class MeterDescriptions {
  static final Map<String, String> HELP =
      Map.ofEntries(
          Map.entry("trainyard.commands", "queue commands a worker concluded, by type and outcome"),
          Map.entry(
              "trainyard.dead.commands", "commands that could not be applied, kept for replay"),
          Map.entry("trainyard.decide.store", "one poll of queue commands: decide, store, publish"),
          Map.entry(
              "trainyard.dead.commands.pending",
              "commands kept dead, not yet replayed or dismissed"),
          Map.entry(
              "trainyard.queues.stalled",
              "queues of this worker's partitions whose ready pull requests waited without one concluding"),
          Map.entry(
              "trainyard.queues.waiting",
              "queues of this worker's partitions whose ready pull requests wait for a conclusion"),
          Map.entry(
              "trainyard.worker.tick.age", "seconds since the ticker's last round went through"),
          Map.entry(
              "trainyard.dependency.up",
              "whether this process reaches its broker and its store (1) or not (0), checked every 10 s"),
          Map.entry(
              "trainyard.effects", "effects run against the source host, by kind and outcome"),
          Map.entry(
              "trainyard.effects.waiting",
              "effects waiting for one of their source host's threads, by host"),
          Map.entry("trainyard.outbox.backlog", "outboxes written, not yet published"),
          Map.entry(
              "trainyard.pull.requests.waiting", "pull requests of every queue not yet concluded"),
          Map.entry(
              "trainyard.pull.requests.concluded",
              "pull requests concluded by the versions this worker stored, by conclusion"),
          Map.entry("trainyard.worker.partitions.assigned", "command partitions this worker holds"),
          Map.entry(
              "trainyard.worker.queues.cached",
              "queues of its partitions this worker holds in memory"),
          Map.entry("trainyard.scm.calls", "calls to source hosts, by adapter and status"),
          Map.entry(
              "trainyard.github.rate.limit.remaining",
              "lowest x-ratelimit-remaining GitHub reported in the last 5 minutes"),
          Map.entry(
              "trainyard.command.round.trip",
              "a command sent by the gateway until the worker's reply, by type and outcome"),
          Map.entry(
              "trainyard.rate.limited",
              "requests refused with 429 by the per-organization rate limit (first 100 organizations named, the rest _other)"),
          Map.entry(
              "trainyard.webhook.attempts",
              "webhook delivery attempts, by outcome and status class"),
          Map.entry(
              "trainyard.webhook.delivery.delay", "an event's publication to its endpoint's 2xx"),
          Map.entry(
              "trainyard.webhook.endpoints.disabled", "webhook endpoints disabled for failing"),
          Map.entry("trainyard.flaky.uploads", "test report uploads, by outcome"),
          Map.entry("trainyard.flaky.test.cases.ingested", "test cases of the uploads accepted"),
          Map.entry(
              "trainyard.flaky.classification.changes",
              "test cases whose status changed, by the status they moved to"));

  private MeterDescriptions() {}

  /** Fills in the description of a trainyard meter registered without one. */
  public static MeterFilter filter() {
    return new MeterFilter() {
      @Override
      public Meter.Id map(Meter.Id id) {
        String help = HELP.get(id.getName());
        if (help == null || id.getDescription() != null) {
          return id;
        }
        return new Meter.Id(
            id.getName(), Tags.of(id.getTags()), id.getBaseUnit(), help, id.getType());
      }
    };
  }
}

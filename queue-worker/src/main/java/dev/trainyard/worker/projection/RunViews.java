package dev.trainyard.worker.projection;

import dev.trainyard.common.command.ImpactedTargets;
import dev.trainyard.common.view.TestRunDocument;
import dev.trainyard.common.view.TestingDetails;
import dev.trainyard.worker.engine.Entry;
import dev.trainyard.worker.engine.QueueAggregate;
import dev.trainyard.worker.engine.RunState;
import dev.trainyard.worker.engine.RunStatus;
import dev.trainyard.worker.engine.TestRun;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The {@code test_runs} documents (getMergeQueueTestingDetails) of a queue's runs, and which of
 * them changed between two states.
 */
public final class RunViews {
  private final PublicEvents urls;

  public RunViews(PublicEvents urls) {
    this.urls = urls;
  }

  /** The documents of runs whose details differ from {@code before} (or are new). */
  public List<TestRunDocument> changed(QueueAggregate before, QueueAggregate after) {
    if (after == null) {
      return List.of();
    }
    Map<String, TestRunDocument> previous = new HashMap<>();
    if (before != null) {
      runs(before).forEach(r -> previous.put(r.id(), document(before, r)));
    }
    List<TestRunDocument> changed = new ArrayList<>();
    runs(after)
        .forEach(
            r -> {
              TestRunDocument now = document(after, r);
              if (!now.equals(previous.get(r.id()))) {
                changed.add(now);
              }
            });
    return changed;
  }

  private TestRunDocument document(QueueAggregate queue, TestRun run) {
    return new TestRunDocument(
        run.id(),
        queue.key().id(),
        details(queue, run),
        targets(queue, run),
        run.bisection() ? TestRunDocument.BISECTION : TestRunDocument.MAIN,
        run.state().isFinal() ? run.stateChangedAt() : null);
  }

  /**
   * The target lists of the run's PRs while they are queued (a concluded PR's entry keeps them
   * too); a PR without targets contributes none.
   */
  private static TestRunDocument.TargetRefs targets(QueueAggregate queue, TestRun run) {
    List<String> tested = new ArrayList<>();
    run.prs().forEach(p -> queue.anyEntry(p.entryId()).ifPresent(e -> addRef(tested, e)));
    List<String> all = new ArrayList<>();
    run.dependentPrs().forEach(number -> queue.activeEntry(number).ifPresent(e -> addRef(all, e)));
    tested.forEach(ref -> addRef(all, ref));
    return new TestRunDocument.TargetRefs(tested, all);
  }

  private static void addRef(List<String> refs, Entry entry) {
    ImpactedTargets targets = entry.impactedTargets();
    if (targets != null) {
      addRef(refs, targets.all() ? TestRunDocument.TargetRefs.ALL : targets.digest());
    }
  }

  private static void addRef(List<String> refs, String ref) {
    if (ref != null && !refs.contains(ref)) {
      refs.add(ref);
    }
  }

  public TestingDetails details(QueueAggregate queue, TestRun run) {
    List<String> required = queue.settings().requiredStatuses();
    if (required == null) {
      required = run.statuses().stream().map(RunStatus::context).toList();
    }
    return new TestingDetails(
        required,
        "merge_instance",
        run.branch(queue.key().branch()),
        run.headSha(),
        run.createdAt(),
        status(run.state()),
        List.of(),
        run.statuses().stream()
            .map(
                s ->
                    new TestingDetails.StatusCheck(
                        s.context(), s.url(), s.state().name().toUpperCase(Locale.ROOT)))
            .toList(),
        run.prs().stream()
            .map(
                p ->
                    new TestingDetails.TestedPullRequest(
                        p.number(), urls.detailsUrl(queue.key(), p.number()), p.title()))
            .toList(),
        List.of(),
        List.of(),
        run.dependentPrs(),
        waitingOn(queue, run),
        run.state() == RunState.FAILED || run.state() == RunState.RED ? run.failureReason() : null);
  }

  private static Stream<TestRun> runs(QueueAggregate queue) {
    return Stream.concat(queue.runs().live().stream(), queue.runs().finished().stream());
  }

  /**
   * The undecided runs a chain run was built on, oldest first: it lands only after them. In
   * parallel mode these are the runs of its own lane, not every run ahead of it in the queue.
   */
  private static List<String> waitingOn(QueueAggregate queue, TestRun run) {
    if (queue.runs().chain().stream().noneMatch(r -> r.id().equals(run.id()))) {
      return List.of();
    }
    List<String> ahead = new ArrayList<>();
    Optional<TestRun> below = predecessor(queue, run);
    while (below.isPresent()) {
      if (below.get().state() != RunState.PASSED) {
        ahead.add(0, below.get().id());
      }
      below = predecessor(queue, below.get());
    }
    return ahead;
  }

  private static Optional<TestRun> predecessor(QueueAggregate queue, TestRun run) {
    return Optional.ofNullable(run.predecessorId()).flatMap(queue.runs()::live);
  }

  private static String status(RunState state) {
    switch (state) {
      case PASSED:
      case SUCCEEDED:
      case CLEARED:
        return "succeeded";
      case RED:
      case FAILED:
        return "failed";
      case CANCELLED:
        return "cancelled";
      default:
        return "in_progress";
    }
  }
}

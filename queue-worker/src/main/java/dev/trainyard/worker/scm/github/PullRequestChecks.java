package dev.trainyard.worker.scm.github;

import dev.trainyard.common.command.RequiredCheck;
import dev.trainyard.common.queue.OrgRepo;
import dev.trainyard.common.queue.PrState;
import dev.trainyard.worker.engine.CheckRule;
import dev.trainyard.worker.engine.Entry;
import dev.trainyard.worker.engine.QueueAggregate;
import dev.trainyard.worker.scm.github.GithubScm.CheckOutput;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the {@code trainyard} check run of every PR of a GitHub queue in step with the queue
 * (API.md §6): its state and position while queued, then merged, failed or cancelled; and comments
 * on a PR that failed, once, when the queue has {@code commentsEnabled}. Called after every
 * processed poll with the queue states it produced; it only decides there, and GitHub is called on
 * one thread of its own, latest state first: a PR that changes twice before its check is written is
 * written once. A call that fails is tried again on the queue's next change.
 */
public final class PullRequestChecks implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(PullRequestChecks.class);

  /** Concluded PRs this worker never showed are shown only when they concluded this recently. */
  static final Duration RECENT = Duration.ofMinutes(10);

  private final GithubScm github;
  private final InstantSource clock;
  private final ExecutorService writer = Executors.newSingleThreadExecutor();
  private final Map<String, Wanted> wanted = new ConcurrentHashMap<>();
  private final Map<String, Shown> shown = new ConcurrentHashMap<>();

  /** What one PR's check should show: its commit, the output, and a failure to comment on. */
  record Wanted(OrgRepo repo, long number, String sha, CheckOutput output, String failedEntry) {}

  private record Shown(long checkRun, Wanted wanted) {}

  public PullRequestChecks(GithubScm github, InstantSource clock) {
    this.github = github;
    this.clock = clock;
  }

  /** Queues the checks that {@code state} changes. */
  public void observe(QueueAggregate state) {
    if (state == null
        || !state.settings().statusCheckEnabled()
        || !github.serves(state.key().orgRepo())) {
      return;
    }
    for (Wanted w : wanted(state, clock.instant())) {
      String key = key(state, w.number(), w.sha());
      Shown now = shown.get(key);
      if (now != null && now.wanted().equals(w)) {
        continue;
      }
      if (!Objects.equals(wanted.put(key, w), w)) {
        writer.execute(() -> write(key));
      }
    }
  }

  /** The check of every queued PR and of those that concluded (recently, or shown before). */
  List<Wanted> wanted(QueueAggregate state, Instant now) {
    OrgRepo repo = state.key().orgRepo();
    List<Entry> queued =
        state.inQueueOrder().stream().filter(e -> !e.pr().sha().isEmpty()).toList();
    java.util.ArrayList<Wanted> out = new java.util.ArrayList<>();
    for (int i = 0; i < queued.size(); i++) {
      Entry e = queued.get(i);
      out.add(
          new Wanted(
              repo,
              e.prNumber(),
              e.pr().sha(),
              queuedOutput(state, e, i + 1, queued.size()),
              null));
    }
    for (Entry e : state.concluded()) {
      String key = key(state, e.prNumber(), e.pr().sha());
      boolean known = shown.containsKey(key) || wanted.containsKey(key);
      if (e.pr().sha().isEmpty() || !(known || e.stateChangedAt().isAfter(now.minus(RECENT)))) {
        continue;
      }
      boolean comment = e.state() == PrState.FAILED && state.settings().commentsEnabled();
      out.add(
          new Wanted(
              repo,
              e.prNumber(),
              e.pr().sha(),
              concludedOutput(e, missingChecks(state, e)),
              comment ? e.id() : null));
    }
    return out;
  }

  /** One check run's key: the queue, the PR and the head it is on. */
  private static String key(QueueAggregate state, long number, String sha) {
    return state.key().id() + "#" + number + "@" + sha;
  }

  static CheckOutput queuedOutput(QueueAggregate state, Entry e, int position, int of) {
    String where =
        "position " + position + " of " + of + " in the " + state.key().branch() + " queue";
    String title =
        switch (e.state()) {
          case NOT_READY -> "Not ready";
          case PENDING -> "Waiting";
          case TESTING -> "Testing";
          case TESTS_PASSED -> "Tests passed, landing";
          case PENDING_FAILURE -> "Failed, waiting for the PRs ahead";
          default -> e.state().name().toLowerCase(Locale.ROOT);
        };
    String summary =
        title + ", " + where + (e.testRunId() == null ? "." : "; test run " + e.testRunId() + ".");
    return new CheckOutput(title + " (" + position + " of " + of + ")", summary, null);
  }

  /**
   * The required checks that never succeeded on the head of the run {@code e} failed in: what a run
   * that timed out waited for.
   */
  private static String missingChecks(QueueAggregate state, Entry e) {
    if (e.state() != PrState.FAILED || e.testRunId() == null) {
      return "";
    }
    return state
        .runs()
        .any(e.testRunId())
        .map(run -> CheckRule.missing(state, run))
        .filter(missing -> !missing.isEmpty())
        .map(
            missing ->
                " Required checks that did not succeed: "
                    + missing.stream()
                        .map(RequiredCheck::toString)
                        .collect(java.util.stream.Collectors.joining(", "))
                    + ".")
        .orElse("");
  }

  static CheckOutput concludedOutput(Entry e, String missing) {
    return switch (e.state()) {
      case MERGED -> new CheckOutput("Merged", "trainyard merged this pull request.", "success");
      case FAILED ->
          new CheckOutput(
              "Failed",
              "The pull request failed in the merge queue"
                  + (e.testRunId() == null ? "." : " (test run " + e.testRunId() + ").")
                  + missing,
              "failure");
      default ->
          new CheckOutput(
              "Cancelled", "The pull request left the merge queue without merging.", "cancelled");
    };
  }

  private void write(String key) {
    Wanted w = wanted.remove(key);
    if (w == null) {
      return;
    }
    Shown before = shown.get(key);
    try {
      long id =
          github.publishCheck(
              w.repo(), w.sha(), before == null ? null : before.checkRun(), w.output());
      if (w.failedEntry() != null) {
        github.commentOnce(
            w.repo(),
            w.number(),
            "<!-- trainyard:failed:" + w.failedEntry() + " -->",
            "trainyard could not merge this pull request: " + w.output().summary());
      }
      shown.put(key, new Shown(id, w));
    } catch (RuntimeException e) {
      log.warn("could not show the trainyard check of {}: {}", key, e.getMessage());
    }
  }

  @Override
  public void close() {
    writer.shutdownNow();
  }
}

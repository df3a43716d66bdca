package dev.trainyard.worker.scm.github;

import dev.trainyard.common.command.RequiredCheck;
import dev.trainyard.common.queue.OrgRepo;
import dev.trainyard.common.queue.PrState;
import dev.trainyard.common.queue.QueueSettings;
import dev.trainyard.worker.engine.CheckRule;
import dev.trainyard.worker.engine.Entry;
import dev.trainyard.worker.engine.QueueAggregate;
import dev.trainyard.worker.engine.Reasons;
import dev.trainyard.worker.engine.TestRun;
import dev.trainyard.worker.projection.PublicEvents;
import dev.trainyard.worker.scm.github.GithubScm.CheckOutput;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps what GitHub shows of every PR of a GitHub queue in step with the queue (API.md §6): the
 * {@code trainyard} check run ({@code statusCheckEnabled}) with its state, position, the runs ahead
 * and a link to the PR's page while queued, then merged, failed or cancelled; one comment on a PR
 * that failed ({@code commentsEnabled}); and one {@code trainyard:*} label for its state ({@code
 * stateLabelsEnabled}). Called after every processed poll with the queue states it published; it
 * only decides there, and GitHub is called on one thread of its own, latest state first: a PR that
 * changes twice before it is written is written once. A queued PR's check run, whose position
 * changes with every landing ahead of it, is rewritten at most once a minute ({@link #DEBOUNCE}); a
 * conclusion or a new label is written at once. A write that fails is tried again after {@link
 * #RETRY_FIRST}, twice as long after each further failure up to {@link #RETRY_MOST}, until it
 * succeeds or {@link #RETRIES} retries have failed too (then it is given up until the PR's state
 * changes): a conclusion GitHub refused once would otherwise stay "in progress" on a queue that
 * changes no more. A refusal that will not pass (a missing permission) is retried the same: ten
 * cheap calls. Every write may be repeated: a check run is found on its commit again, a comment by
 * its marker, a label by its name.
 */
public final class PullRequestChecks implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(PullRequestChecks.class);

  /** Concluded PRs this worker never showed are shown only when they concluded this recently. */
  static final Duration RECENT = Duration.ofMinutes(10);

  /** The least time between two writes of a queued PR's check run, by default. */
  public static final Duration DEBOUNCE = Duration.ofMinutes(1);

  /** The wait before a failed write is tried the first time again; it doubles after each. */
  static final Duration RETRY_FIRST = Duration.ofSeconds(2);

  /** The longest wait between two tries of one write. */
  static final Duration RETRY_MOST = Duration.ofMinutes(5);

  /**
   * How many times a failed write is tried again: over about 18 minutes, longer than the longest
   * single pause GitHub's secondary limit imposes ({@code GithubClient}: 16 minutes; a call in a
   * pause fails at once without reaching GitHub).
   */
  static final int RETRIES = 10;

  private final GithubScm github;
  private final InstantSource clock;
  private final PublicEvents links;
  private final Duration debounce;
  private final ScheduledExecutorService writer = Executors.newSingleThreadScheduledExecutor();
  private final Map<String, Wanted> wanted = new ConcurrentHashMap<>();
  private final Map<String, Shown> shown = new ConcurrentHashMap<>();
  private final Map<String, Integer> failures = new ConcurrentHashMap<>();
  private final Set<String> retrying = ConcurrentHashMap.newKeySet();

  /**
   * What one PR should show: its commit; the check's output (null: no check); a failure to comment
   * on; and, when {@code labeled}, its state label ({@code label} null: none).
   */
  record Wanted(
      OrgRepo repo,
      long number,
      String sha,
      CheckOutput output,
      String failedEntry,
      boolean labeled,
      String label) {}

  record Shown(Long checkRun, Wanted wanted, Instant at) {}

  /**
   * @param debounce the least time between two writes of a queued PR's check run ({@link
   *     #DEBOUNCE}; tests shorten it)
   */
  public PullRequestChecks(
      GithubScm github, InstantSource clock, PublicEvents links, Duration debounce) {
    this.github = github;
    this.clock = clock;
    this.links = links;
    this.debounce = debounce;
  }

  /** Queues the writes that {@code state} changes. */
  public void observe(QueueAggregate state) {
    if (state == null || !shows(state.settings()) || !github.serves(state.key().orgRepo())) {
      return;
    }
    Instant now = clock.instant();
    for (Wanted w : wanted(state, now)) {
      String key = key(state, w.number(), w.sha());
      Shown last = shown.get(key);
      if (last != null && last.wanted().equals(w)) {
        wanted.remove(key); // back to what GitHub shows: a pending retry of another is stale
        continue;
      }
      if (!Objects.equals(wanted.put(key, w), w)) {
        writer.schedule(
            () -> write(key), delay(last, w, now, debounce).toMillis(), TimeUnit.MILLISECONDS);
      }
    }
  }

  /**
   * How long a write waits: a queued PR whose label stays and whose check run was written less than
   * {@code debounce} ago waits for the rest of it (only its position or the runs ahead changed);
   * anything else is written at once.
   */
  static Duration delay(Shown last, Wanted w, Instant now, Duration debounce) {
    boolean onlyPosition =
        last != null
            && w.output() != null
            && w.output().conclusion() == null
            && w.failedEntry() == null
            && Objects.equals(last.wanted().label(), w.label());
    if (!onlyPosition) {
      return Duration.ZERO;
    }
    Duration left = Duration.between(now, last.at().plus(debounce));
    return left.isNegative() ? Duration.ZERO : left;
  }

  private static boolean shows(QueueSettings settings) {
    return settings.statusCheckEnabled()
        || settings.stateLabelsEnabled()
        || settings.commentsEnabled();
  }

  /** What every queued PR, and those that concluded (recently, or shown before), should show. */
  List<Wanted> wanted(QueueAggregate state, Instant now) {
    OrgRepo repo = state.key().orgRepo();
    QueueSettings settings = state.settings();
    List<Entry> queued =
        state.inQueueOrder().stream().filter(e -> !e.pr().sha().isEmpty()).toList();
    List<Wanted> out = new ArrayList<>();
    for (int i = 0; i < queued.size(); i++) {
      Entry e = queued.get(i);
      CheckOutput output =
          settings.statusCheckEnabled()
              ? queuedOutput(state, e, i + 1, queued.size(), detailsUrl(state, e))
              : null;
      out.add(
          new Wanted(
              repo,
              e.prNumber(),
              e.pr().sha(),
              output,
              null,
              settings.stateLabelsEnabled(),
              label(e.state())));
    }
    for (Entry e : state.concluded()) {
      String key = key(state, e.prNumber(), e.pr().sha());
      boolean known = shown.containsKey(key) || wanted.containsKey(key);
      if (e.pr().sha().isEmpty() || !(known || e.stateChangedAt().isAfter(now.minus(RECENT)))) {
        continue;
      }
      boolean comment = e.state() == PrState.FAILED && settings.commentsEnabled();
      CheckOutput output =
          concludedOutput(e, missingChecks(state, e) + refusal(state, e), detailsUrl(state, e));
      out.add(
          new Wanted(
              repo,
              e.prNumber(),
              e.pr().sha(),
              settings.statusCheckEnabled() ? output : null,
              comment ? e.id() : null,
              settings.stateLabelsEnabled(),
              label(e.state())));
    }
    return out;
  }

  /**
   * The label of a PR's queue state (API.md §6 {@code stateLabelsEnabled}); none once it left the
   * queue other than by merging or failing.
   */
  static String label(PrState state) {
    return switch (state) {
      case NOT_READY, PENDING -> "trainyard:queued";
      case TESTING, TESTS_PASSED, PENDING_FAILURE -> "trainyard:testing";
      case MERGED -> "trainyard:merged";
      case FAILED -> "trainyard:failed";
      default -> null;
    };
  }

  private String detailsUrl(QueueAggregate state, Entry e) {
    return links.detailsUrl(state.key(), e.prNumber());
  }

  /** One PR's key: the queue, the PR and the head it is on. */
  private static String key(QueueAggregate state, long number, String sha) {
    return state.key().id() + "#" + number + "@" + sha;
  }

  static CheckOutput queuedOutput(
      QueueAggregate state, Entry e, int position, int of, String detailsUrl) {
    String where =
        "position " + position + " of " + of + " in the " + state.key().branch() + " queue";
    String title =
        switch (e.state()) {
          case NOT_READY -> "Not ready";
          case PENDING -> "Waiting";
          case TESTING -> "Testing";
          case TESTS_PASSED -> "Tests passed, landing";
          case PENDING_FAILURE ->
              state.runs().live(e.testRunId()).filter(TestRun::bisection).isPresent()
                  ? "Red, waiting for its test results"
                  : "Failed, waiting for the PRs ahead";
          default -> e.state().name().toLowerCase(Locale.ROOT);
        };
    StringBuilder summary =
        new StringBuilder(title)
            .append(", ")
            .append(where)
            .append(e.testRunId() == null ? "." : "; test run " + e.testRunId() + ".");
    if (e.isolated() && state.landingProblem() != null) {
      // why it runs alone: its batch could not land whole (or would have landed another tree)
      summary.append("\n\nIt is tested alone: ").append(state.landingProblem()).append('.');
    }
    List<String> ahead = runsAhead(state, e);
    summary
        .append("\n\n")
        .append(
            ahead.isEmpty()
                ? "No test run is ahead of it."
                : "Ahead of it:\n" + String.join("\n", ahead));
    summary.append("\n\n[Its page in trainyard](").append(detailsUrl).append(")");
    return new CheckOutput(
        title + " (" + position + " of " + of + ")", summary.toString(), null, detailsUrl);
  }

  /**
   * The live runs that land before {@code e}'s: those ahead of its run in the chain, or every run
   * of the chain while it waits for one. One line each: id, PRs and state.
   */
  static List<String> runsAhead(QueueAggregate state, Entry e) {
    List<String> lines = new ArrayList<>();
    for (TestRun run : state.runs().chain()) {
      if (run.contains(e.id())) {
        break;
      }
      lines.add(
          "- test run "
              + run.id()
              + " ("
              + run.prs().stream().map(p -> "#" + p.number()).collect(Collectors.joining(", "))
              + "): "
              + run.state().name().toLowerCase(Locale.ROOT));
    }
    return lines;
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
                        .collect(Collectors.joining(", "))
                    + ".")
        .orElse("");
  }

  /** GitHub's own words when it refused to land the run {@code e} failed in. */
  private static String refusal(QueueAggregate state, Entry e) {
    boolean refused =
        e.state() == PrState.FAILED
            && e.testRunId() != null
            && state.landingProblem() != null
            && state
                .runs()
                .any(e.testRunId())
                .filter(
                    r ->
                        Reasons.MERGE_REFUSED.equals(r.failureReason())
                            || Reasons.LANDED_TREE_DIFFERS.equals(r.failureReason()))
                .isPresent();
    return refused ? " " + state.landingProblem() : "";
  }

  static CheckOutput concludedOutput(Entry e, String missing, String detailsUrl) {
    return switch (e.state()) {
      case MERGED ->
          new CheckOutput("Merged", "trainyard merged this pull request.", "success", detailsUrl);
      case FAILED ->
          new CheckOutput(
              "Failed",
              "The pull request failed in the merge queue"
                  + (e.testRunId() == null ? "." : " (test run " + e.testRunId() + ").")
                  + missing,
              "failure",
              detailsUrl);
      default ->
          new CheckOutput(
              "Cancelled",
              "The pull request left the merge queue without merging.",
              "cancelled",
              detailsUrl);
    };
  }

  private void write(String key) {
    Shown before = shown.get(key);
    Wanted w = wanted.get(key);
    if (w == null) {
      return;
    }
    // a task scheduled while nothing was shown yet may run after a write: the wait applies again
    Duration wait = delay(before, w, clock.instant(), debounce);
    if (!wait.isZero()) {
      writer.schedule(() -> write(key), wait.toMillis(), TimeUnit.MILLISECONDS);
      return;
    }
    if (!wanted.remove(key, w)) {
      return; // replaced meanwhile: the task its replacement scheduled writes it
    }
    try {
      Long id = before == null ? null : before.checkRun();
      if (w.output() != null) {
        id = github.publishCheck(w.repo(), w.sha(), id, w.output());
      }
      if (w.failedEntry() != null) {
        String why = w.output() != null ? w.output().summary() : "it failed in the merge queue.";
        github.commentOnce(
            w.repo(),
            w.number(),
            "<!-- trainyard:failed:" + w.failedEntry() + " -->",
            "trainyard could not merge this pull request: " + why);
      }
      boolean labelChanged =
          before == null
              || !before.wanted().labeled()
              || !Objects.equals(before.wanted().label(), w.label());
      if (w.labeled() && labelChanged) {
        github.stateLabel(w.repo(), w.number(), w.label());
      }
      shown.put(key, new Shown(id, w, clock.instant()));
      failures.remove(key);
    } catch (WriteBudget.Spent e) {
      // landings and test branches go first: written once the budget has room, unless newer
      again(key, w, e.retry());
    } catch (RuntimeException e) {
      if (before != null && before.checkRun() != null) {
        // the run may be gone (deleted with its commit's checks): the next try looks it up again
        shown.put(key, new Shown(null, before.wanted(), before.at()));
      }
      int failed = failures.merge(key, 1, Integer::sum);
      if (failed > RETRIES) {
        failures.remove(key);
        log.warn(
            "could not show the trainyard state of {} in {} tries, given up until the PR changes:"
                + " {}",
            key,
            failed,
            e.getMessage());
        return;
      }
      Duration backoff = retryWait(failed);
      log.warn(
          "could not show the trainyard state of {}, tried again in {} s: {}",
          key,
          backoff.toSeconds(),
          e.getMessage());
      again(key, w, backoff);
    }
  }

  /**
   * Writes {@code w} after {@code wait}, unless a newer state of the PR is wanted meanwhile; one
   * retry at a time per PR, which writes whatever is wanted when it runs.
   */
  private void again(String key, Wanted w, Duration wait) {
    if (wanted.putIfAbsent(key, w) == null && retrying.add(key)) {
      writer.schedule(
          () -> {
            retrying.remove(key);
            write(key);
          },
          wait.toMillis(),
          TimeUnit.MILLISECONDS);
    }
  }

  /** The wait after the {@code failed}th failed try of one write. */
  static Duration retryWait(int failed) {
    Duration wait = RETRY_FIRST.multipliedBy(1L << Math.min(failed - 1, 20));
    return wait.compareTo(RETRY_MOST) > 0 ? RETRY_MOST : wait;
  }

  @Override
  public void close() {
    writer.shutdownNow();
  }
}

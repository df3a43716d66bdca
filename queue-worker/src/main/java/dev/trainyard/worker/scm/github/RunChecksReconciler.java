package dev.trainyard.worker.scm.github;

import dev.trainyard.common.command.QueueCommand.ReportStatus;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.worker.engine.QueueAggregate;
import dev.trainyard.worker.engine.RunState;
import dev.trainyard.worker.engine.RunStatus;
import dev.trainyard.worker.engine.TestRun;
import dev.trainyard.worker.signals.OwnedQueues;
import dev.trainyard.worker.signals.Rounds;
import dev.trainyard.worker.signals.Signals;
import dev.trainyard.worker.store.QueueStore;
import dev.trainyard.worker.store.StoredQueue;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * No result waits on a lost delivery (API.md §6): GitHub does not retry a webhook delivery that
 * failed, so every {@code TRAINYARD_GITHUB_RECONCILE_INTERVAL} this worker reads the check runs and
 * commit statuses of the head of every run still testing in its GitHub queues, and sends each one
 * the queue has not recorded as the same {@link ReportStatus} a delivery would have become
 * (deduplicated by the engine like any other). The reads are conditional requests: an unchanged
 * answer is a 304, which GitHub does not count against the rate limit. The reads run on a thread of
 * its own, one round at a time: the scheduler's thread also ticks every queue's timers, and a
 * GitHub call may wait out a rate limit for up to a minute.
 */
public class RunChecksReconciler implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(RunChecksReconciler.class);
  private final GithubScm github;
  private final QueueStore store;
  private final OwnedQueues owned;
  private final Signals signals;
  private final Rounds rounds = new Rounds("github-reconciler");

  public RunChecksReconciler(
      GithubScm github, QueueStore store, OwnedQueues owned, Signals signals) {
    this.github = github;
    this.store = store;
    this.owned = owned;
    this.signals = signals;
  }

  @Scheduled(
      fixedDelayString = "${trainyard.github.reconcile-interval:60s}",
      initialDelayString = "${trainyard.github.reconcile-interval:60s}")
  public void reconcile() {
    rounds.trigger(this::round);
  }

  /** Called by Spring when the worker stops: no reader thread outlives its context. */
  @Override
  public void close() {
    rounds.close();
  }

  private void round() {
    Predicate<String> mine = owned.now();
    List<QueueKey> active;
    try {
      active = store.activeQueues();
    } catch (RuntimeException e) {
      log.warn("could not list the queues to reconcile; the next round retries: {}", e.toString());
      return;
    }
    for (QueueKey key : active) {
      if (mine.test(key.id()) && github.serves(key.orgRepo())) {
        try {
          store.load(key.id()).map(StoredQueue::aggregate).ifPresent(this::reconcile);
        } catch (RuntimeException e) {
          log.warn("could not reconcile {}; the next round retries: {}", key.id(), e.toString());
        }
      }
    }
  }

  private void reconcile(QueueAggregate queue) {
    Set<String> read = new HashSet<>();
    for (TestRun run : queue.runs().live()) {
      if (run.state() != RunState.TESTING || run.headSha() == null || !read.add(run.headSha())) {
        continue;
      }
      for (ReportStatus report : github.reports(queue.key().orgRepo(), run.headSha())) {
        if (!recorded(run, report)) {
          log.info(
              "{}: {} on {} reached trainyard by reading it, not by a delivery",
              queue.key().id(),
              report.context(),
              run.headSha());
          signals.send(queue.key(), report);
        }
      }
    }
  }

  private static boolean recorded(TestRun run, ReportStatus report) {
    for (RunStatus s : run.statuses()) {
      if (s.sameCheck(report.context(), report.appId())) {
        return s.state() == report.state()
            && Objects.equals(s.url(), report.url())
            && Objects.equals(s.description(), report.description());
      }
    }
    return false;
  }
}

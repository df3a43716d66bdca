package dev.trainyard.worker.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.command.CommitState;
import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.command.RejectionType;
import dev.trainyard.common.github.CheckReports;
import dev.trainyard.common.queue.PrState;
import org.junit.jupiter.api.Test;

/** The limits that keep one queue's document bounded whatever its clients send. */
class QueueLimitsTest {

  @Test
  void aFullQueueRefusesANewPullRequestWithTheLimitNamed() {
    QueueFixture q = QueueFixture.queue(3).submitted(1).submitted(2).submitted(3);

    Decision decision = q.decide(new QueueCommand.SubmitPullRequest(4, null, null));

    assertThat(decision.isAccepted()).isFalse();
    assertThat(decision.rejection().type()).isEqualTo(RejectionType.LIMIT_REACHED);
    assertThat(decision.rejection().message())
        .isEqualTo(
            "the queue holds 3 pull requests, the most it may hold (TRAINYARD_MAX_QUEUE_PRS = 3);"
                + " submit again once some have landed or been cancelled");
  }

  @Test
  void aFullQueueStillTakesAResubmitAndHasRoomAgainOnceAPullRequestLeaves() {
    QueueFixture q = QueueFixture.queue(2).submitted(1).submitted(2);

    assertThat(q.decide(new QueueCommand.SubmitPullRequest(2, null, true)).isAccepted()).isTrue();
    assertThat(
            q.cancelled(1).decide(new QueueCommand.SubmitPullRequest(3, null, null)).isAccepted())
        .isTrue();
  }

  @Test
  void aRunKeepsAtMostTheLimitOfContextsAndStillTakesNewsOfTheOnesItHas() {
    QueueFixture q = fullRun().required("ci/job-7");
    String head = q.runOf(1).headSha();

    Decision another =
        q.decide(
            new QueueCommand.ReportStatus(head, "ci/one-more", CommitState.SUCCESS, null, null));
    Decision known =
        q.decide(new QueueCommand.ReportStatus(head, "ci/job-7", CommitState.SUCCESS, null, null));

    assertThat(another.isAccepted()).as("a context no rule counts").isFalse();
    assertThat(another.rejection().type()).isEqualTo(RejectionType.LIMIT_REACHED);
    assertThat(another.rejection().message()).contains("100 contexts");
    assertThat(known.isAccepted()).isTrue();
    assertThat(q.runOf(1).statuses()).hasSize(RunResults.MAX_STATUSES_PER_RUN);
  }

  @Test
  void aContextBeyondTheLimitThatWouldCountFailsTheRunInsteadOfBeingDropped() {
    QueueFixture q = fullRun();
    String head = q.runOf(1).headSha();

    q.apply(new QueueCommand.ReportStatus(head, "ci/one-more", CommitState.FAILURE, null, null));

    assertThat(q.stateOf(1)).isEqualTo(PrState.FAILED);
    assertThat(q.state().runs().finished().get(0).statuses())
        .anyMatch(
            s ->
                s.context().equals(CheckReports.TOO_MANY)
                    && s.state() == CommitState.ERROR
                    && s.description().contains("more than 100 checks"));
  }

  @Test
  void aNamedCheckBeyondTheLimitIsStillKept() {
    QueueFixture q = fullRun().required("ci/late");
    String head = q.runOf(1).headSha();

    q.apply(new QueueCommand.ReportStatus(head, "ci/late", CommitState.SUCCESS, null, null));

    assertThat(q.stateOf(1)).isIn(PrState.TESTS_PASSED, PrState.MERGED);
  }

  /** A queue whose run of PR 1 holds the most contexts a run keeps, all pending. */
  private static QueueFixture fullRun() {
    QueueFixture q = QueueFixture.queue().queued(1).built(1);
    for (int i = 0; i < RunResults.MAX_STATUSES_PER_RUN; i++) {
      q.status(1, "ci/job-" + i, CommitState.PENDING);
    }
    return q;
  }
}

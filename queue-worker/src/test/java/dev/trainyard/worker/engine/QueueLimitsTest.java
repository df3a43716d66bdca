package dev.trainyard.worker.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.command.CommitState;
import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.command.RejectionType;
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
    QueueFixture q = QueueFixture.queue().queued(1).built(1);
    for (int i = 0; i < RunResults.MAX_STATUSES_PER_RUN; i++) {
      q.status(1, "ci/job-" + i, CommitState.PENDING);
    }
    String head = q.runOf(1).headSha();

    Decision another =
        q.decide(
            new QueueCommand.ReportStatus(head, "ci/one-more", CommitState.SUCCESS, null, null));
    Decision known =
        q.decide(new QueueCommand.ReportStatus(head, "ci/job-7", CommitState.SUCCESS, null, null));

    assertThat(another.isAccepted()).isFalse();
    assertThat(another.rejection().type()).isEqualTo(RejectionType.LIMIT_REACHED);
    assertThat(another.rejection().message()).contains("100 contexts");
    assertThat(known.isAccepted()).isTrue();
    assertThat(q.runOf(1).statuses()).hasSize(RunResults.MAX_STATUSES_PER_RUN);
  }
}

package dev.trainyard.worker.engine;

import dev.trainyard.common.queue.MergeCommitMessage;
import dev.trainyard.common.queue.MergeMethod;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Source-host work a queue's state asks for. Effects are not events: {@link Effects#of} derives
 * them from the state, so a crashed or lost effect is simply asked for again; each reports back as
 * a command on the queue's key, and each is safe to repeat.
 */
public sealed interface Effect {
  String runId();

  /**
   * Build the run's branch from {@code baseSha} (null: the target's current head) and the PRs in
   * order; {@code at} dates its merge commits, so a rebuild gives the same commits. {@code
   * testPullRequest}: also open a draft pull request for it ({@code createPrsForTestingBranches}).
   * {@code message}: the template of its merge commits ({@link
   * dev.trainyard.common.queue.QueueSettings#testBranchMessage}).
   */
  record BuildTestBranch(
      String runId,
      String branch,
      String baseSha,
      List<TestedPr> prs,
      Instant at,
      boolean testPullRequest,
      MergeCommitMessage message)
      implements Effect {}

  /**
   * A direct merge's check: whether {@code pr}'s head contains the target's head. It answers {@code
   * RecordTestBranch} with the target's head as base and the PR's head as head (no branch is
   * built), or {@code RecordDirectMergeRefused}.
   */
  record CheckDirectMerge(String runId, TestedPr pr) implements Effect {}

  /**
   * Move the target from {@code expectedTargetSha} to the tested tree, shaped by {@code method};
   * {@code builtOnSha} is what the run's branch was built on. {@code otherHeads} are the other
   * passed lane heads (parallel mode): when the target moved, one of them may have landed just
   * before a crash lost its record, and is looked for before the move counts as someone else's.
   * {@code message}: the template of the commits a squash (or a replay) writes. {@code
   * stackedBases}: the base of each PR of the run that is not the target (a stacked PR, by number),
   * which the landing retargets onto the target first.
   */
  record LandRun(
      String runId,
      String expectedTargetSha,
      String builtOnSha,
      String testedSha,
      MergeMethod method,
      List<TestedPr> prs,
      List<PassedHead> otherHeads,
      MergeCommitMessage message,
      Map<Long, String> stackedBases)
      implements Effect {}

  /** A passed lane head: where it would land from, and what it tested. */
  record PassedHead(String runId, String expectedTargetSha, String testedSha, List<TestedPr> prs) {}

  /**
   * Delete a concluded run's branch, after closing its draft pull request {@code testPrNumber}
   * (null: it has none).
   */
  record DeleteTestBranch(String runId, String branch, Long testPrNumber) implements Effect {}
}

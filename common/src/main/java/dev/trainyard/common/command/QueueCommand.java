package dev.trainyard.common.command;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import dev.trainyard.common.queue.MergeMethod;
import dev.trainyard.common.queue.Mergeability;
import dev.trainyard.common.queue.Priority;
import dev.trainyard.common.queue.QueueMode;
import dev.trainyard.common.queue.QueueSettingsPatch;
import java.time.Instant;
import java.util.List;

/**
 * A command to one queue. Commands are imperative; the engine answers with events or a rejection.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.SIMPLE_NAME, property = "kind")
@JsonSubTypes({
  @JsonSubTypes.Type(QueueCommand.CreateQueue.class),
  @JsonSubTypes.Type(QueueCommand.UpdateQueue.class),
  @JsonSubTypes.Type(QueueCommand.DeleteQueue.class),
  @JsonSubTypes.Type(QueueCommand.SubmitPullRequest.class),
  @JsonSubTypes.Type(QueueCommand.CancelPullRequest.class),
  @JsonSubTypes.Type(QueueCommand.RestartTests.class),
  @JsonSubTypes.Type(QueueCommand.SetImpactedTargets.class),
  @JsonSubTypes.Type(QueueCommand.Tick.class),
  @JsonSubTypes.Type(QueueCommand.RecordPullRequestState.class),
  @JsonSubTypes.Type(QueueCommand.RecordSourceProblem.class),
  @JsonSubTypes.Type(QueueCommand.RecordRequiredChecks.class),
  @JsonSubTypes.Type(QueueCommand.RefreshFromScm.class),
  @JsonSubTypes.Type(QueueCommand.ReportStatus.class),
  @JsonSubTypes.Type(QueueCommand.RecordTestBranch.class),
  @JsonSubTypes.Type(QueueCommand.RecordTestBranchConflict.class),
  @JsonSubTypes.Type(QueueCommand.RecordMerge.class),
  @JsonSubTypes.Type(QueueCommand.RecordMergeRefused.class),
  @JsonSubTypes.Type(QueueCommand.RecordPartialMerge.class),
  @JsonSubTypes.Type(QueueCommand.RecordLandingHeld.class),
  @JsonSubTypes.Type(QueueCommand.RecordBranchDeleted.class),
  @JsonSubTypes.Type(QueueCommand.FreezeQueue.class),
  @JsonSubTypes.Type(QueueCommand.UnfreezeQueue.class),
  @JsonSubTypes.Type(QueueCommand.RecordDirectMergeRefused.class),
  @JsonSubTypes.Type(QueueCommand.RecordTestResults.class)
})
public sealed interface QueueCommand {

  /** A command about one pull request of the queue. */
  interface OfPullRequest {
    long prNumber();
  }

  /** The pull request {@code command} is about, or null when it is about none. */
  static Long pullRequestOf(QueueCommand command) {
    return command instanceof OfPullRequest one ? one.prNumber() : null;
  }

  /**
   * Creates the queue with the default settings but these; {@code mergeMethod} null: the default
   * ({@code merge_commit}).
   */
  record CreateQueue(QueueMode mode, long concurrency, MergeMethod mergeMethod)
      implements QueueCommand {
    public CreateQueue(QueueMode mode, long concurrency) {
      this(mode, concurrency, null);
    }
  }

  /**
   * Changes the settings {@code patch} names; with {@code ifSettingsVersion}, only while the
   * queue's settings are still the ones of that {@link
   * dev.trainyard.common.queue.QueueSettings#version()} (a form that shows them must not revert
   * someone else's change).
   */
  record UpdateQueue(QueueSettingsPatch patch, String ifSettingsVersion) implements QueueCommand {
    public UpdateQueue(QueueSettingsPatch patch) {
      this(patch, null);
    }
  }

  record DeleteQueue(boolean unused) implements QueueCommand {
    public DeleteQueue() {
      this(false);
    }
  }

  /**
   * {@code priority} and {@code noBatch} are null when the request did not give them; {@code
   * headSha} is the head the submitter saw (a comment or label on GitHub), null when unknown: a PR
   * whose head is another by the time the source host is read was pushed to after it was submitted.
   * {@code dependsOn}: the PRs of the queue it must land after (API.md §2), null when not given (a
   * resubmit keeps what the first submit said). {@code stack}: the PRs it is stacked on (its base
   * is their head branch) are submitted with it, down to the one based on the target. {@code
   * predictedRisk}: the chance, 0 to 1, that the PR breaks the target as its submitter's predictor
   * sees it (SCHEDULING.md "Predicted risk"), null when not given (a resubmit keeps what it had).
   */
  record SubmitPullRequest(
      long prNumber,
      Priority priority,
      Boolean noBatch,
      String headSha,
      List<Long> dependsOn,
      boolean stack,
      Double predictedRisk)
      implements QueueCommand, OfPullRequest {
    /** The most PRs one PR may depend on. */
    public static final int MAX_DEPENDS_ON = 50;

    public SubmitPullRequest {
      dependsOn = dependsOn == null ? null : List.copyOf(dependsOn);
    }

    public SubmitPullRequest(
        long prNumber,
        Priority priority,
        Boolean noBatch,
        String headSha,
        List<Long> dependsOn,
        boolean stack) {
      this(prNumber, priority, noBatch, headSha, dependsOn, stack, null);
    }

    public SubmitPullRequest(
        long prNumber, Priority priority, Boolean noBatch, String headSha, List<Long> dependsOn) {
      this(prNumber, priority, noBatch, headSha, dependsOn, false);
    }

    public SubmitPullRequest(long prNumber, Priority priority, Boolean noBatch, String headSha) {
      this(prNumber, priority, noBatch, headSha, null);
    }

    public SubmitPullRequest(long prNumber, Priority priority, Boolean noBatch) {
      this(prNumber, priority, noBatch, null, null);
    }
  }

  record CancelPullRequest(long prNumber) implements QueueCommand, OfPullRequest {}

  record RestartTests(long prNumber) implements QueueCommand, OfPullRequest {}

  /** Records which targets a PR head impacts; the list itself is stored under {@code digest}. */
  record SetImpactedTargets(long prNumber, String sha, ImpactedTargets targets)
      implements QueueCommand, OfPullRequest {}

  /**
   * What the source host shows of a pull request now: its head, title, author, base and
   * mergeability, what holds it beyond conflicts ({@code hold}: a draft, a required review; null
   * when nothing does), or {@code open = false} once it was closed (its ref deleted). Texts are cut
   * to what GitHub itself allows (a title of {@value #MAX_TITLE} characters, names of {@value
   * #MAX_NAME}): a plain git server would otherwise give a commit message of any length, and each
   * is kept in the queue's document. {@code dependsOn}: the PRs its description (GitHub) or head
   * commit message (git) names in {@code Depends-On: #n} lines, at most {@link
   * SubmitPullRequest#MAX_DEPENDS_ON}, and the PR it is stacked on. {@code stackedOn}: the open PR
   * whose head branch is this one's base (a stack), null when its base is no PR's.
   */
  record RecordPullRequestState(
      long prNumber,
      boolean open,
      String sha,
      String title,
      String author,
      String baseBranch,
      String headBranch,
      Mergeability mergeability,
      String hold,
      List<Long> dependsOn,
      List<HostDependency> hostDependencies,
      Long stackedOn)
      implements QueueCommand, OfPullRequest {
    public static final int MAX_TITLE = 256;
    public static final int MAX_NAME = 255;

    public RecordPullRequestState {
      dependsOn =
          dependsOn == null
              ? List.of()
              : dependsOn.stream().limit(SubmitPullRequest.MAX_DEPENDS_ON).toList();
      hostDependencies =
          hostDependencies == null
              ? List.of()
              : hostDependencies.stream()
                  .limit(2L * SubmitPullRequest.MAX_DEPENDS_ON)
                  .map(
                      d ->
                          new HostDependency(
                              d.number(), d.merged(), d.open(), cut(d.baseBranch(), MAX_NAME)))
                  .toList();
      title = cut(title, MAX_TITLE);
      author = cut(author, MAX_NAME);
      baseBranch = cut(baseBranch, MAX_NAME);
      headBranch = cut(headBranch, MAX_NAME);
      hold = cut(hold, MAX_TITLE);
    }

    private static String cut(String text, int max) {
      if (text == null || text.length() <= max) {
        return text;
      }
      int end = Character.isHighSurrogate(text.charAt(max - 2)) ? max - 2 : max - 1;
      return text.substring(0, end) + "…";
    }

    public RecordPullRequestState(
        long prNumber,
        boolean open,
        String sha,
        String title,
        String author,
        String baseBranch,
        String headBranch,
        Mergeability mergeability,
        String hold,
        List<Long> dependsOn) {
      this(
          prNumber,
          open,
          sha,
          title,
          author,
          baseBranch,
          headBranch,
          mergeability,
          hold,
          dependsOn,
          List.of(),
          null);
    }

    public static RecordPullRequestState closed(long prNumber) {
      return new RecordPullRequestState(
          prNumber, false, null, null, null, null, null, null, null, List.of());
    }
  }

  /**
   * The worker's shell found the source host unable to serve the queue's repository ({@code
   * problem}: one sentence saying why), or able again ({@code problem} null).
   */
  record RecordSourceProblem(String problem) implements QueueCommand {}

  /**
   * The checks the source host declares required on the queue's target branch (GitHub's branch
   * protection and rulesets, API.md §6): {@code checks} (empty: none declared), or {@code problem},
   * one sentence saying why they cannot be read (a permission the App lacks). Only hosts that
   * declare required checks send it; a queue that never got one follows the plain-git rule.
   */
  record RecordRequiredChecks(List<RequiredCheck> checks, String problem) implements QueueCommand {
    public RecordRequiredChecks {
      checks = checks == null ? List.of() : List.copyOf(checks);
    }
  }

  /**
   * The source host says refs changed (a post-receive hook, a GitHub delivery): re-read the queue's
   * PRs now, and its target's required checks too when {@code checksChanged} (GitHub said its
   * protection or rulesets changed). Handled by the worker's shell, which answers once the
   * resulting {@link RecordPullRequestState} commands are on the queue's log; it changes no state
   * by itself.
   */
  record RefreshFromScm(boolean checksChanged) implements QueueCommand {
    public RefreshFromScm() {
      this(false);
    }
  }

  /**
   * The flaky-tests service classified an upload of test results for {@code commitSha} of the
   * queue's repository: {@code failedTests} tests failed, {@code unexcusedFailures} of them neither
   * quarantined nor excused by a flake on record, and {@code excusedByPrs} lists, per failed test
   * excused only by flakes seen on pull requests, those PRs (null in commands of before). Applied
   * to the live run whose head that commit is (SCHEDULING.md "Flake-aware failures"), where a test
   * excused only by the run's own PRs counts as unexcused; for any other commit it changes nothing.
   */
  record RecordTestResults(
      String commitSha, int failedTests, int unexcusedFailures, List<List<Long>> excusedByPrs)
      implements QueueCommand {
    public RecordTestResults(String commitSha, int failedTests, int unexcusedFailures) {
      this(commitSha, failedTests, unexcusedFailures, List.of());
    }
  }

  /** Time passed: lets the engine act on deadlines (stale PRs, test timeouts, batch waits). */
  record Tick(boolean unused) implements QueueCommand {
    public Tick() {
      this(false);
    }
  }

  /**
   * A CI status for a commit of the queue's repository ({@code /v1/ci/reportStatus}, a GitHub check
   * run or commit status); applied to the test run whose branch head it is, or kept until such a
   * run appears. {@code appId}: the GitHub App that reported a check run (null for commit statuses
   * and plain CI), for required checks bound to one app; {@code checkRunId}: GitHub's id of that
   * check run, so a late delivery of its start cannot undo its conclusion.
   */
  record ReportStatus(
      String sha,
      String context,
      CommitState state,
      String url,
      String description,
      Long appId,
      Long checkRunId)
      implements QueueCommand {
    public ReportStatus(
        String sha, String context, CommitState state, String url, String description) {
      this(sha, context, state, url, description, null, null);
    }

    public ReportStatus(
        String sha, String context, CommitState state, String url, String description, Long appId) {
      this(sha, context, state, url, description, appId, null);
    }
  }

  /**
   * Effect result: the test branch of {@code testRunId} was built on {@code baseSha}; {@code
   * testPrNumber} is the draft pull request opened for it ({@code createPrsForTestingBranches}),
   * null without one. {@code containedHeads}: the PR head commits its builder verified {@code
   * headSha} contains (null from a builder that predates it); a run whose PR head is missing from
   * it does not record the branch.
   */
  record RecordTestBranch(
      String testRunId,
      String baseSha,
      String headSha,
      Long testPrNumber,
      @JsonInclude(JsonInclude.Include.NON_NULL) List<String> containedHeads)
      implements QueueCommand {
    public RecordTestBranch {
      containedHeads = containedHeads == null ? null : List.copyOf(containedHeads);
    }

    public RecordTestBranch(String testRunId, String baseSha, String headSha, Long testPrNumber) {
      this(testRunId, baseSha, headSha, testPrNumber, null);
    }

    public RecordTestBranch(String testRunId, String baseSha, String headSha) {
      this(testRunId, baseSha, headSha, null, null);
    }
  }

  /** Effect result: {@code prNumber} did not merge cleanly while building the run's branch. */
  record RecordTestBranchConflict(String testRunId, long prNumber)
      implements QueueCommand, OfPullRequest {}

  /** Effect result: the run landed; the target branch now points at {@code targetSha}. */
  record RecordMerge(String testRunId, String targetSha) implements QueueCommand {}

  /**
   * Effect result: nothing landed, since the source host now holds PR {@code prNumber} of the run
   * ({@code why}: a review requested changes after it was tested): the PR waits, not ready, until
   * the host lets it go; the rest of the run is tested again.
   */
  record RecordLandingHeld(String testRunId, long prNumber, String why)
      implements QueueCommand, OfPullRequest {}

  /**
   * Effect result: the source host landed the first PRs of the batch, {@code mergedPrNumbers} (the
   * target now points at {@code targetSha}), then refused {@code stoppedAt} ({@code refusal}, in
   * its words). What merged is merged; the rest of the batch is tested again, each PR alone.
   */
  record RecordPartialMerge(
      String testRunId,
      String targetSha,
      List<Long> mergedPrNumbers,
      long stoppedAt,
      String refusal)
      implements QueueCommand {}

  /**
   * Effect result: the run could not land and nothing changed. The target moved ({@code targetSha}
   * = where it is now), the merge method could not replay {@code conflictPrNumber}, or the source
   * host refused the landing for a reason testing again will not change ({@code refusal}, in its
   * words). {@code treeDiffers}: the merge method would have landed, for {@code conflictPrNumber},
   * a tree other than the tested one ({@code LANDED_TREE_DIFFERS}; {@code refusal} says why).
   */
  record RecordMergeRefused(
      String testRunId,
      String targetSha,
      Long conflictPrNumber,
      String refusal,
      boolean treeDiffers)
      implements QueueCommand {
    public RecordMergeRefused(String testRunId, String targetSha, Long conflictPrNumber) {
      this(testRunId, targetSha, conflictPrNumber, null, false);
    }

    public RecordMergeRefused(
        String testRunId, String targetSha, Long conflictPrNumber, String refusal) {
      this(testRunId, targetSha, conflictPrNumber, refusal, false);
    }
  }

  /**
   * Effect result: a direct merge's PR does not contain the target's head ({@code directMergeMode}
   * {@code always}, API.md §3): it is tested the usual way.
   */
  record RecordDirectMergeRefused(String testRunId) implements QueueCommand {}

  /** Effect result: the run's test branch no longer exists. */
  record RecordBranchDeleted(String testRunId) implements QueueCommand {}

  /**
   * Stop landing (testing goes on) until {@link UnfreezeQueue} or {@code until} (null: until
   * unfrozen); freezing a frozen queue replaces its reason and end.
   */
  record FreezeQueue(String reason, Instant until) implements QueueCommand {}

  /** Land again; a queue that is not frozen stays as it is. */
  record UnfreezeQueue(boolean unused) implements QueueCommand {
    public UnfreezeQueue() {
      this(false);
    }
  }
}

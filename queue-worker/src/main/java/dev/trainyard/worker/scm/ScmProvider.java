package dev.trainyard.worker.scm;

import dev.trainyard.common.command.QueueCommand.RecordRequiredChecks;
import dev.trainyard.common.queue.MergeMethod;
import dev.trainyard.common.queue.Mergeability;
import dev.trainyard.common.queue.OrgRepo;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * One source host. Every call names the organization with the repository: organizations are
 * separate tenants, and a provider serves one only its own repositories. Every call is blocking
 * I/O: callers run it off the Kafka listener threads. Calls are idempotent: a test branch's name
 * contains its run id, and a merge checks the target's head before moving it.
 */
public interface ScmProvider {

  /** Whether this provider holds {@code repo}. */
  boolean serves(OrgRepo repo);

  /**
   * Brings what this provider reads of {@code repo} up to date with its host (a remote's fetch);
   * nothing where the provider reads the host directly.
   *
   * @throws java.io.UncheckedIOException with one sentence saying why the host cannot be reached
   */
  default void fetch(OrgRepo repo) {}

  /**
   * The poller is about to read {@code repos} one after another: what this provider would look up
   * in the store for each (the git adapter's remote registrations) it may look up for all of them
   * in one read now. Nothing where it needs no such look-up.
   *
   * @throws RuntimeException when the store cannot be read (each repository's read then uses what
   *     the provider remembers, or looks up its own once that has expired)
   */
  default void readAhead(Collection<OrgRepo> repos) {}

  /**
   * The host said something of {@code repo} changed (a webhook delivery, a notify): a refusal this
   * provider remembers for it, such as an App not installed on it, or a registration it read from
   * the store, is asked again on the next read instead of when it would expire. Nothing where the
   * provider remembers none.
   */
  default void hostChanged(OrgRepo repo) {}

  /**
   * A value that changes whenever anything this provider reads of {@code repo}'s pull requests may
   * have changed (after {@link #fetch}): the poller does not read again the queues of a repository
   * whose value and queue are both as at their last read. Empty where the provider cannot say
   * cheaply (GitHub, whose unchanged reads its conditional requests already make cheap).
   *
   * @throws java.io.UncheckedIOException when the repository cannot be read
   */
  default Optional<String> refsVersion(OrgRepo repo) {
    return Optional.empty();
  }

  /** The pull request, if the host has it; its base defaults to {@code targetBranch}. */
  Optional<ScmPullRequest> pullRequest(OrgRepo repo, long number, String targetBranch);

  /**
   * Whether an empty {@link #pullRequest} means the host shows the PR closed — GitHub, where a PR
   * is never deleted — rather than not there yet (plain git, where a PR is a branch that may be
   * pushed after the PR was submitted). A PR closed before it was ever read leaves the queue then.
   */
  default boolean emptyMeansClosed(OrgRepo repo) {
    return false;
  }

  /**
   * What the host says of PR {@code number}, which another PR depends on and the queue does not
   * know: merged (into any branch: another queue, by hand, long ago), open (on which base), or
   * closed without merging; empty where the host cannot say.
   */
  default Optional<dev.trainyard.common.command.HostDependency> dependency(
      OrgRepo repo, long number, String targetBranch) {
    return Optional.empty();
  }

  /** Whether {@code headSha} merges cleanly into the current head of {@code targetBranch}. */
  Mergeability mergeability(OrgRepo repo, String targetBranch, String headSha);

  /**
   * Builds {@code branch} (the run's {@code trainyard-merge/<targetBranch>/<id>}, named by the
   * engine) from {@code baseSha} (null: the current head of {@code targetBranch}) and the PR heads
   * merged in order. Its commits are dated {@code at}, so building the same run again gives the
   * same commits; each merge's message is from {@code messages} (a {@code merge_commit} landing
   * lands these very commits).
   */
  TestBranchResult buildTestBranch(
      OrgRepo repo,
      String targetBranch,
      String branch,
      String baseSha,
      List<PullRequestHead> prs,
      Instant at,
      CommitMessages messages);

  /**
   * Lands a tested run: moves {@code targetBranch} from {@code expectedTargetSha} to a commit whose
   * tree is the tested one, shaped by {@code method} ({@code builtOnSha} is what the run's branch
   * was built on); refuses, changing nothing, when the target is elsewhere. When the target already
   * holds exactly this landing (a repeated call), answers {@code Merged} with it. The commits it
   * writes (a squash's, a merge made again on a moved target) take their messages from {@code
   * messages}; a fast-forward lands the tested commits as they are.
   */
  MergeResult merge(
      OrgRepo repo,
      String targetBranch,
      String expectedTargetSha,
      String builtOnSha,
      String testedSha,
      MergeMethod method,
      List<PullRequestHead> prs,
      CommitMessages messages);

  /**
   * Where {@code targetBranch} holds the landing of the run tested as {@code testedSha} (with
   * {@code prs}) made since {@code expectedTargetSha}, if it was landed: a landing whose record a
   * crash lost. Empty while the target is still at {@code expectedTargetSha}.
   */
  Optional<String> landing(
      OrgRepo repo,
      String targetBranch,
      String expectedTargetSha,
      String testedSha,
      List<PullRequestHead> prs);

  /**
   * The current head of {@code targetBranch} when commit {@code headSha} already contains it (a
   * direct merge may land it as it is); empty when it does not, or the target does not exist.
   */
  Optional<String> containedTarget(OrgRepo repo, String targetBranch, String headSha);

  /** Deletes a branch; deleting one that does not exist is not an error. */
  void deleteBranch(OrgRepo repo, String branch);

  /** The current head of {@code branch}, if it exists. */
  Optional<String> branchHead(OrgRepo repo, String branch);

  /**
   * Opens a draft pull request of {@code branch} (a run's test branch) into {@code targetBranch}
   * testing {@code prs}, for CI that only runs for pull requests ({@code
   * createPrsForTestingBranches}); answers its number, or the number of the one already open (a
   * repeated call opens no second). Empty where the host has no pull requests to open.
   */
  default Optional<Long> openTestPullRequest(
      OrgRepo repo, String targetBranch, String branch, List<PullRequestHead> prs) {
    return Optional.empty();
  }

  /** Closes test pull request {@code number}; one already closed or merged is left as it is. */
  default void closeTestPullRequest(OrgRepo repo, long number) {}

  /**
   * The checks the host declares required on {@code branch}, as the command that records them (a
   * problem when the host refuses to say); empty where the host declares none at all (plain git).
   * {@code fresh}: the host said they changed, so nothing cached is answered.
   *
   * @throws java.io.UncheckedIOException when the host cannot be reached now
   */
  default Optional<RecordRequiredChecks> requiredChecks(
      OrgRepo repo, String branch, boolean fresh) {
    return Optional.empty();
  }
}

package dev.trainyard.worker.scm;

import dev.trainyard.common.command.QueueCommand.RecordRequiredChecks;
import dev.trainyard.common.queue.MergeMethod;
import dev.trainyard.common.queue.Mergeability;
import dev.trainyard.common.queue.OrgRepo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The source hosts of this worker in order: each call goes to the first that serves the repository
 * (the git adapter's registered remotes and local repositories before the GitHub App, so a
 * repository an organization registered as a remote is reached that way whatever its host).
 */
public final class ScmRouter implements ScmProvider {
  private final List<ScmProvider> providers;

  public ScmRouter(List<ScmProvider> providers) {
    this.providers = List.copyOf(providers);
  }

  @Override
  public boolean serves(OrgRepo repo) {
    return providers.stream().anyMatch(p -> p.serves(repo));
  }

  @Override
  public void fetch(OrgRepo repo) {
    of(repo).fetch(repo);
  }

  @Override
  public void readAhead(Collection<OrgRepo> repos) {
    providers.forEach(p -> p.readAhead(repos));
  }

  /** Every provider forgets what it remembers of {@code repo}: which one serves it may change. */
  @Override
  public void hostChanged(OrgRepo repo) {
    providers.forEach(p -> p.hostChanged(repo));
  }

  @Override
  public Optional<String> refsVersion(OrgRepo repo) {
    return of(repo).refsVersion(repo);
  }

  @Override
  public Optional<ScmPullRequest> pullRequest(OrgRepo repo, long number, String targetBranch) {
    return of(repo).pullRequest(repo, number, targetBranch);
  }

  @Override
  public Optional<dev.trainyard.common.command.HostDependency> dependency(
      OrgRepo repo, long number, String targetBranch) {
    return of(repo).dependency(repo, number, targetBranch);
  }

  @Override
  public boolean emptyMeansClosed(OrgRepo repo) {
    return of(repo).emptyMeansClosed(repo);
  }

  @Override
  public Mergeability mergeability(OrgRepo repo, String targetBranch, String headSha) {
    return of(repo).mergeability(repo, targetBranch, headSha);
  }

  @Override
  public TestBranchResult buildTestBranch(
      OrgRepo repo,
      String targetBranch,
      String branch,
      String baseSha,
      List<PullRequestHead> prs,
      Instant at,
      CommitMessages messages) {
    return of(repo).buildTestBranch(repo, targetBranch, branch, baseSha, prs, at, messages);
  }

  @Override
  public MergeResult merge(
      OrgRepo repo,
      String targetBranch,
      String expectedTargetSha,
      String builtOnSha,
      String testedSha,
      MergeMethod method,
      List<PullRequestHead> prs,
      CommitMessages messages) {
    return of(repo)
        .merge(repo, targetBranch, expectedTargetSha, builtOnSha, testedSha, method, prs, messages);
  }

  @Override
  public Optional<String> landing(
      OrgRepo repo,
      String targetBranch,
      String expectedTargetSha,
      String testedSha,
      List<PullRequestHead> prs) {
    return of(repo).landing(repo, targetBranch, expectedTargetSha, testedSha, prs);
  }

  @Override
  public void deleteBranch(OrgRepo repo, String branch) {
    of(repo).deleteBranch(repo, branch);
  }

  @Override
  public Optional<String> containedTarget(OrgRepo repo, String targetBranch, String headSha) {
    return of(repo).containedTarget(repo, targetBranch, headSha);
  }

  @Override
  public Optional<String> branchHead(OrgRepo repo, String branch) {
    return of(repo).branchHead(repo, branch);
  }

  @Override
  public Optional<Long> openTestPullRequest(
      OrgRepo repo, String targetBranch, String branch, List<PullRequestHead> prs) {
    return of(repo).openTestPullRequest(repo, targetBranch, branch, prs);
  }

  @Override
  public void closeTestPullRequest(OrgRepo repo, long number) {
    of(repo).closeTestPullRequest(repo, number);
  }

  @Override
  public Optional<RecordRequiredChecks> requiredChecks(OrgRepo repo, String branch, boolean fresh) {
    return of(repo).requiredChecks(repo, branch, fresh);
  }

  private ScmProvider of(OrgRepo repo) {
    return providers.stream()
        .filter(p -> p.serves(repo))
        .findFirst()
        .orElseThrow(
            () ->
                new UncheckedIOException(
                    new IOException("no source host serves " + repo.repo().slug())));
  }
}

package dev.trainyard.common.view;

import java.time.Instant;
import java.util.List;

/**
 * One test run as getMergeQueueTestingDetails returns it (API.md §2; every key present). Status
 * values keep the hosting platform's upper case.
 */
public record TestingDetails(
    List<String> requiredStatuses,
    String requiredStatusesSource,
    String testBranch,
    String testBranchSha,
    Instant createdAt,
    String status,
    List<CheckSuite> checkSuites,
    List<StatusCheck> statusChecks,
    List<TestedPullRequest> testedPullRequests,
    List<String> impactedTargets,
    List<String> impactedTargetsForTestedPrs,
    List<Long> dependentPrs,
    List<String> waitingOnTestRunIds,
    String failureReason) {

  /** GitHub check suites; plain git repositories report statuses only, so this stays empty. */
  public record CheckSuite(List<CheckRun> checkRuns) {}

  public record CheckRun(String name, String url, String status, String conclusion) {}

  public record StatusCheck(String context, String url, String state) {}

  public record TestedPullRequest(long prNumber, String prUrl, String title) {}
}

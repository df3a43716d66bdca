package dev.trainyard.gateway.auth;

import static java.util.Map.entry;

import java.util.Map;

/**
 * The one table of what each organization route asks of its caller's {@link Role}: the route guard
 * checks it for the API, and the dashboard's actions, which call the API's handlers, check the same
 * entry for the API path they call (API.md §6 Roles). A route registered without an entry here
 * fails the gateway's start. {@code updateQueue} asks {@link Permission#OPERATE} here (pause,
 * resume, drain); its handler asks {@link Permission#ADMINISTER} as well when the body changes a
 * setting.
 */
public final class ApiPermissions {
  /** The forwarded flaky-tests operations ({@code /v1/flaky-tests/{operation}}). */
  static final String FLAKY_PREFIX = "/v1/flaky-tests/";

  private static final Map<String, Permission> ROUTES =
      Map.ofEntries(
          entry("/v1/submitPullRequest", Permission.SUBMIT),
          entry("/v1/setImpactedTargets", Permission.SUBMIT),
          entry("/v1/ci/reportStatus", Permission.SUBMIT),
          entry("/v1/scm/git/notify", Permission.SUBMIT),
          entry("/v1/getSubmittedPullRequest", Permission.CI_READ),
          entry("/v1/getMergeQueueTestingDetails", Permission.CI_READ),
          entry("/v1/listPullRequests", Permission.READ),
          entry("/v1/getQueue", Permission.READ),
          entry("/v1/getMergeQueueMetrics", Permission.READ),
          entry("/v1/scm/git/getRemote", Permission.READ),
          entry("/v1/webhooks/listEndpoints", Permission.READ),
          entry("/v1/webhooks/listDeliveries", Permission.READ),
          entry("/v1/cancelPullRequest", Permission.OPERATE),
          entry("/v1/restartTestsOnPullRequest", Permission.OPERATE),
          entry("/v1/updateQueue", Permission.OPERATE),
          entry("/v1/freezeQueue", Permission.OPERATE),
          entry("/v1/unfreezeQueue", Permission.OPERATE),
          entry("/v1/webhooks/redeliver", Permission.OPERATE),
          entry("/v1/createQueue", Permission.ADMINISTER),
          entry("/v1/deleteQueue", Permission.ADMINISTER),
          entry("/v1/scm/git/setRemote", Permission.ADMINISTER),
          entry("/v1/scm/git/deleteRemote", Permission.ADMINISTER),
          entry("/v1/webhooks/createEndpoint", Permission.ADMINISTER),
          entry("/v1/webhooks/updateEndpoint", Permission.ADMINISTER),
          entry("/v1/webhooks/deleteEndpoint", Permission.ADMINISTER),
          entry("/v1/webhooks/rotateSecret", Permission.ADMINISTER),
          entry("/v1/webhooks/enableEndpoint", Permission.ADMINISTER),
          entry("/v1/listAuditEvents", Permission.ADMINISTER));

  private static final Map<String, Permission> FLAKY =
      Map.ofEntries(
          entry("upload", Permission.SUBMIT),
          entry("get-quarantine-config", Permission.CI_READ),
          entry("list-unhealthy-tests", Permission.READ),
          entry("get-test-case", Permission.READ),
          entry("set-quarantine-setting", Permission.OPERATE),
          entry("link-ticket-to-test-case", Permission.OPERATE),
          entry("update-repo-settings", Permission.ADMINISTER));

  private ApiPermissions() {}

  /** Whether the table names {@code routePattern} (the route as registered, variables unfilled). */
  static boolean names(String routePattern) {
    return ROUTES.containsKey(routePattern) || routePattern.equals(FLAKY_PREFIX + "{operation}");
  }

  /**
   * What a request to {@code path} asks; a flaky-tests operation the service does not have asks
   * {@link Permission#READ} (it answers 404).
   *
   * @throws IllegalArgumentException for an organization path the table does not name
   */
  public static Permission of(String path) {
    if (path.startsWith(FLAKY_PREFIX)) {
      return FLAKY.getOrDefault(path.substring(FLAKY_PREFIX.length()), Permission.READ);
    }
    Permission permission = ROUTES.get(path);
    if (permission == null) {
      throw new IllegalArgumentException(path + " has no entry in ApiPermissions");
    }
    return permission;
  }
}

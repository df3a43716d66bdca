package dev.trainyard.gateway.audit;

import dev.trainyard.common.queue.RepoRef;
import java.time.Instant;

/**
 * One recorded action (API.md §6 listAuditEvents): {@code action} is the API operation ({@code
 * cancelPullRequest}, {@code flaky-tests/set-quarantine-setting}, {@code admin/createApiToken}),
 * {@code via} {@code api} or {@code dashboard}, {@code status} the answer's HTTP status and {@code
 * outcome} its sentence when it was refused. {@code repo}, {@code targetBranch} and {@code
 * prNumber} are null when the request named none.
 */
public record AuditEvent(
    String id,
    String org,
    Instant at,
    Actor actor,
    String via,
    String action,
    RepoRef repo,
    String targetBranch,
    Long prNumber,
    String ip,
    String userAgent,
    int status,
    String outcome) {

  /** Who acted: a token ({@code token:<12 hex digits>} and its name) or the admin token. */
  public record Actor(String id, String name, String role) {}
}

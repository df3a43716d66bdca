package dev.trainyard.gateway.auth;

/**
 * What a request asks to do, as {@link ApiPermissions} names it for each route; a {@link Role}
 * holds a set of them.
 */
public enum Permission {
  /** Read what CI needs: a submitted PR's state and testing details, the quarantine list. */
  CI_READ("read a pull request's state"),
  /** Read everything of the organization: queues, listings, webhooks, remotes, metrics. */
  READ("read the organization's queues and settings"),
  /** What CI sends: submit PRs and their impacted targets, statuses, test results, ref changes. */
  SUBMIT("submit pull requests and report results"),
  /** Act on the queue: cancel, restart, pause, resume, freeze, quarantine overrides, redeliver. */
  OPERATE("operate queues (cancel, restart, pause, freeze, quarantine, redeliver)"),
  /**
   * Change how things work: queue settings, webhooks, remotes, repository settings, the audit log.
   */
  ADMINISTER("administer the organization (settings, webhooks, remotes, the audit log)");

  private final String what;

  Permission(String what) {
    this.what = what;
  }

  /** What the permission allows, for the sentence of a 403. */
  public String what() {
    return what;
  }
}

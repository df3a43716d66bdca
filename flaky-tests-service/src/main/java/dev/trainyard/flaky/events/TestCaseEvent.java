package dev.trainyard.flaky.events;

/**
 * One event for {@code trainyard.events}: a stable id (the same when a retried write publishes it
 * again, so subscribers get it once), the organization, the type, the test id (the key) and the
 * body of API.md §7.
 */
public record TestCaseEvent(String id, String org, String type, String testId, String body) {
  public static final String STATUS_CHANGED = "test_case.status_changed";
  public static final String QUARANTINE_CHANGED = "test_case.quarantining_setting_changed";
}

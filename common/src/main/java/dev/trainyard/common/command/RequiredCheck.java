package dev.trainyard.common.command;

/**
 * A check that must succeed on a test run's head: a check-run name or commit-status context, and
 * the GitHub App that must report it ({@code appId}; null: any reporter), as GitHub's branch
 * protection ({@code checks[].app_id}) and rulesets ({@code integration_id}) declare it.
 */
public record RequiredCheck(String context, Long appId) {
  public static RequiredCheck named(String context) {
    return new RequiredCheck(context, null);
  }

  /** Whether a report of {@code reported} by app {@code reporter} counts for this check. */
  public boolean matches(String reported, Long reporter) {
    return context.equals(reported) && (appId == null || appId.equals(reporter));
  }

  @Override
  public String toString() {
    return appId == null ? context : context + " (app " + appId + ")";
  }
}

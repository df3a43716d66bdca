package dev.trainyard.flaky.events;

import dev.trainyard.common.json.Json;
import dev.trainyard.common.json.Timestamps;
import dev.trainyard.flaky.cases.QuarantineSetting;
import dev.trainyard.flaky.cases.TestCaseJson;
import dev.trainyard.flaky.classify.Status;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/** The bodies of the {@code test_case.*} events of API.md §7, with ids derived from their cause. */
public final class TestCaseEvents {
  private TestCaseEvents() {}

  /**
   * A status change of the test case stored at version {@code fromVersion}: the id depends only on
   * the test, that version and the new status, so whoever stores the transition (an upload written
   * again, another replica) and whoever publishes it (the writer, the sweeper) yields one event.
   */
  public static TestCaseEvent statusChanged(
      String org,
      String testId,
      long fromVersion,
      Map<String, Object> testCase,
      Status previous,
      Status current) {
    Map<String, Object> change = new LinkedHashMap<>();
    change.put("previous_status", previous.value().wire());
    change.put("current_status", TestCaseJson.status(current));
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("type", TestCaseEvent.STATUS_CHANGED);
    body.put("test_case", testCase);
    body.put("status_change", change);
    return new TestCaseEvent(
        id("status", org, testId, "v" + fromVersion, current.value().name()),
        org,
        TestCaseEvent.STATUS_CHANGED,
        testId,
        Json.mapper().writeValueAsString(body));
  }

  /** A quarantine override changed from version {@code version} to the next. */
  public static TestCaseEvent quarantineChanged(
      String org,
      String testId,
      int version,
      Map<String, Object> testCase,
      QuarantineSetting previous,
      QuarantineSetting updated,
      String reason,
      Instant at) {
    Map<String, Object> actor = new LinkedHashMap<>();
    actor.put("full_name", "API token of " + org);
    actor.put("email", null);
    Map<String, Object> change = new LinkedHashMap<>();
    change.put("actor", actor);
    change.put("reason", reason);
    change.put("timestamp", Timestamps.format(at));
    change.put("previous_quarantining_setting", previous.name());
    change.put("updated_quarantining_setting", updated.name());
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("type", TestCaseEvent.QUARANTINE_CHANGED);
    body.put("test_case", testCase);
    body.put("quarantine_setting_changed", change);
    return new TestCaseEvent(
        id("quarantine", org, testId, Integer.toString(version + 1), updated.name()),
        org,
        TestCaseEvent.QUARANTINE_CHANGED,
        testId,
        Json.mapper().writeValueAsString(body));
  }

  private static String id(String... parts) {
    return "tc_"
        + UUID.nameUUIDFromBytes(String.join("/", parts).getBytes(StandardCharsets.UTF_8))
            .toString()
            .replace("-", "");
  }
}

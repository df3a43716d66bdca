package dev.trainyard.flaky.cases;

import dev.trainyard.common.json.Timestamps;
import dev.trainyard.flaky.classify.Status;
import dev.trainyard.flaky.repo.Repo;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A test case as API.md §5 lists it (and §7's events carry it): optional keys ({@code file_path},
 * {@code parent}, {@code classname}, {@code ticket}) are omitted when unknown.
 */
public final class TestCaseJson {
  private TestCaseJson() {}

  public static Map<String, Object> item(
      TestCase tc,
      Repo repo,
      String publicUrl,
      List<String> codeowners,
      boolean quarantined,
      Instant now) {
    Map<String, Object> item = new LinkedHashMap<>();
    item.put("id", tc.testId());
    item.put("repository", Map.of("html_url", repo.htmlUrl()));
    item.put("html_url", publicUrl + "/" + tc.org() + "/flaky-tests/test/" + tc.testId());
    item.put("name", tc.name());
    item.put("variant", tc.variant() == null ? "" : tc.variant());
    item.put("status", status(tc.status()));
    item.put("codeowners", codeowners);
    item.put("pull_requests_impacted_last_7d", RunHistory.pullRequestsImpacted(tc.runs(), now));
    item.put("quarantined", quarantined);
    putIfKnown(item, "file_path", tc.filePath());
    putIfKnown(item, "parent", tc.parent());
    putIfKnown(item, "classname", tc.classname());
    if (tc.ticketUrl() != null) {
      item.put("ticket", Map.of("html_url", tc.ticketUrl()));
    }
    return item;
  }

  public static Map<String, Object> status(Status status) {
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("value", status.value().wire());
    s.put("reason", status.reason());
    s.put("timestamp", Timestamps.format(status.since()));
    return s;
  }

  private static void putIfKnown(Map<String, Object> item, String key, String value) {
    if (value != null && !value.isEmpty()) {
      item.put(key, value);
    }
  }
}

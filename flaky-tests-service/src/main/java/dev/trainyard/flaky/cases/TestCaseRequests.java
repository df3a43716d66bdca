package dev.trainyard.flaky.cases;

import dev.trainyard.flaky.http.ApiException;
import dev.trainyard.flaky.http.JsonBody;
import dev.trainyard.flaky.repo.Repo;
import java.util.UUID;

/** Finding the test case a request names ({@code repo} + {@code test_id}) for its organization. */
public final class TestCaseRequests {
  private TestCaseRequests() {}

  /** The test case, or a 404 when it is not one of the organization's repository. */
  public static TestCase find(TestCaseStore cases, String org, Repo repo, String testId) {
    return cases
        .find(org, repo.key(), testId)
        .orElseThrow(
            () ->
                ApiException.notFound(
                    "test_id " + testId + " is not a test case of " + repo.key()));
  }

  /** {@code test_id}: required, a UUID. */
  public static String testId(JsonBody body) {
    String text =
        body.optionalString("test_id")
            .orElseThrow(() -> ApiException.badRequest("test_id is required and must be a UUID"));
    try {
      return UUID.fromString(text).toString();
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest("test_id must be a UUID");
    }
  }
}

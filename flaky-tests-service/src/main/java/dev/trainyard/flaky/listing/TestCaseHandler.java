package dev.trainyard.flaky.listing;

import dev.trainyard.common.json.Timestamps;
import dev.trainyard.flaky.cases.RecentRun;
import dev.trainyard.flaky.cases.TestCase;
import dev.trainyard.flaky.cases.TestCaseJson;
import dev.trainyard.flaky.cases.TestCaseRequests;
import dev.trainyard.flaky.cases.TestCaseStore;
import dev.trainyard.flaky.http.ApiException;
import dev.trainyard.flaky.http.Caller;
import dev.trainyard.flaky.http.JsonAnswers;
import dev.trainyard.flaky.repo.Repo;
import dev.trainyard.flaky.repo.RepoSettings;
import dev.trainyard.flaky.repo.RepoSettingsStore;
import java.time.InstantSource;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * {@code POST /v1/flaky-tests/get-test-case {test_id}} (API.md §6): one test case of the caller's
 * organization, healthy or not, as the listing shows it, with its repository (a test id names it;
 * the dashboard's {@code html_url} links lead here) and its kept runs, newest first.
 */
public class TestCaseHandler {
  private final TestCaseStore cases;
  private final RepoSettingsStore settings;
  private final String publicUrl;
  private final InstantSource clock;

  public TestCaseHandler(
      TestCaseStore cases, RepoSettingsStore settings, String publicUrl, InstantSource clock) {
    this.cases = cases;
    this.settings = settings;
    this.publicUrl = publicUrl;
    this.clock = clock;
  }

  public Mono<ServerResponse> get(ServerRequest request) {
    String org = Caller.org(request);
    return JsonAnswers.body(request)
        .map(TestCaseRequests::testId)
        .flatMap(
            testId ->
                Mono.fromCallable(() -> answer(org, testId))
                    .subscribeOn(Schedulers.boundedElastic()))
        .flatMap(JsonAnswers::ok);
  }

  private Map<String, Object> answer(String org, String testId) {
    TestCase tc = cases.find(org, Set.of(testId)).get(testId);
    if (tc == null) {
      throw ApiException.notFound("test_id " + testId + " is not a test case of this organization");
    }
    String[] parts = tc.repo().split("/", 3);
    Repo repo = new Repo(parts[0], parts[1], parts[2]);
    RepoSettings repoSettings = settings.get(org, repo);
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put(
        "test",
        TestCaseJson.item(
            tc,
            repo,
            publicUrl,
            repoSettings.owners(settings.parsed(org, repoSettings), tc),
            tc.quarantined(repoSettings.autoQuarantine()),
            clock.instant()));
    answer.put("repo", repo.wire());
    answer.put(
        "quarantine_setting", tc.quarantine() == null ? "UNSPECIFIED" : tc.quarantine().name());
    answer.put(
        "runs",
        tc.runs().stream()
            .sorted(Comparator.comparing(RecentRun::at).reversed())
            .map(TestCaseHandler::run)
            .toList());
    return answer;
  }

  private static Map<String, Object> run(RecentRun run) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("commit_sha", run.commitSha());
    out.put("branch", run.branch());
    if (run.prNumber() != null) {
      out.put("pr_number", run.prNumber());
    }
    out.put("outcome", run.outcome().name());
    out.put("at", Timestamps.format(run.at()));
    return out;
  }
}

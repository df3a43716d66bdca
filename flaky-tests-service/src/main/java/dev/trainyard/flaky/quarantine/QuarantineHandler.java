package dev.trainyard.flaky.quarantine;

import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Projections;
import dev.trainyard.flaky.cases.QuarantineSetting;
import dev.trainyard.flaky.cases.TestCase;
import dev.trainyard.flaky.cases.TestCaseJson;
import dev.trainyard.flaky.cases.TestCaseRequests;
import dev.trainyard.flaky.cases.TestCaseStore;
import dev.trainyard.flaky.events.EventPublisher;
import dev.trainyard.flaky.events.TestCaseEvent;
import dev.trainyard.flaky.events.TestCaseEvents;
import dev.trainyard.flaky.http.ApiException;
import dev.trainyard.flaky.http.Caller;
import dev.trainyard.flaky.http.JsonAnswers;
import dev.trainyard.flaky.repo.Repo;
import dev.trainyard.flaky.repo.RepoSettings;
import dev.trainyard.flaky.repo.RepoSettingsStore;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bson.Document;
import org.bson.conversions.Bson;
import org.springframework.http.HttpStatus;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * {@code get-quarantine-config} and {@code set-quarantine-setting}. The config lists the tests
 * whose failures a CI step may ignore: the {@code ALWAYS_QUARANTINE} ones, and — when the
 * repository quarantines automatically — the flaky ones without an override (never a broken one). A
 * changed override is stored, then {@code test_case.quarantining_setting_changed} is published.
 */
public class QuarantineHandler {
  private static final int MAX_REASON = 1024;
  private final TestCaseStore cases;
  private final RepoSettingsStore settings;
  private final EventPublisher events;
  private final InstantSource clock;
  private final String publicUrl;

  public QuarantineHandler(
      TestCaseStore cases,
      RepoSettingsStore settings,
      EventPublisher events,
      InstantSource clock,
      String publicUrl) {
    this.cases = cases;
    this.settings = settings;
    this.events = events;
    this.clock = clock;
    this.publicUrl = publicUrl;
  }

  public Mono<ServerResponse> config(ServerRequest request) {
    String org = Caller.org(request);
    return JsonAnswers.body(request)
        .map(body -> body.repo())
        .flatMap(
            repo ->
                Mono.fromCallable(() -> quarantined(org, repo))
                    .subscribeOn(Schedulers.boundedElastic()))
        .flatMap(tests -> JsonAnswers.ok(Map.of("quarantinedTests", tests)));
  }

  private List<Map<String, Object>> quarantined(String org, Repo repo) {
    RepoSettings repoSettings = settings.get(org, repo);
    Bson which = QuarantinedFilter.of(repoSettings.autoQuarantine());
    List<Map<String, Object>> tests = new ArrayList<>();
    for (Document doc :
        cases
            .collection()
            .find(Filters.and(Filters.eq("org", org), Filters.eq("repo", repo.key()), which))
            .projection(Projections.exclude(TestCaseStore.HISTORY, TestCaseStore.LEGACY_RUNS))) {
      // asked by every CI job: no histories
      TestCase tc = TestCaseStore.fromDocument(doc);
      Map<String, Object> test = new LinkedHashMap<>();
      test.put("id", tc.testId());
      test.put("name", tc.name());
      if (tc.classname() != null) {
        test.put("classname", tc.classname());
      }
      if (tc.filePath() != null) {
        test.put("file_path", tc.filePath());
      }
      test.put("variant", tc.variant() == null ? "" : tc.variant());
      tests.add(test);
    }
    return tests;
  }

  public Mono<ServerResponse> set(ServerRequest request) {
    String org = Caller.org(request);
    return JsonAnswers.body(request)
        .flatMap(
            body -> {
              Repo repo = body.repo();
              String testId = TestCaseRequests.testId(body);
              QuarantineSetting setting =
                  body.optionalString("setting")
                      .flatMap(QuarantineSetting::parse)
                      .orElseThrow(
                          () ->
                              ApiException.badRequest(
                                  "setting must be one of ALWAYS_QUARANTINE, NEVER_QUARANTINE,"
                                      + " UNSPECIFIED"));
              String reason = body.optionalString("reason").orElse(null);
              if (reason != null && reason.length() > MAX_REASON) {
                throw ApiException.badRequest("reason must be at most 1024 characters");
              }
              return Mono.fromRunnable(() -> change(org, repo, testId, setting, reason))
                  .subscribeOn(Schedulers.boundedElastic())
                  .then(JsonAnswers.empty());
            });
  }

  private void change(
      String org, Repo repo, String testId, QuarantineSetting setting, String reason) {
    change(org, repo, TestCaseRequests.find(cases, org, repo, testId), setting, reason);
  }

  /**
   * Writes the override (version-checked: a concurrent change is a 409 and publishes nothing), then
   * publishes its event. The event rides in the document as {@code pendingEvent} until it is
   * published, with an id derived from the test and the version: if publishing fails (a 503) or the
   * process dies in between, the next {@code set-quarantine-setting} of the test — the client's
   * retry — publishes it first, and subscribers receive that id once.
   */
  public void change(
      String org, Repo repo, TestCase before, QuarantineSetting setting, String reason) {
    String testId = before.testId();
    cases.pendingEvent(org, testId).ifPresent(pending -> publish(org, testId, pending));
    if (before.quarantine() == setting) {
      return; // nothing changes, nothing more to tell
    }
    Instant now = clock.instant();
    RepoSettings repoSettings = settings.get(org, repo);
    TestCase after = before.withQuarantine(setting);
    Map<String, Object> item =
        TestCaseJson.item(
            after,
            repo,
            publicUrl,
            repoSettings.owners(settings.parsed(org, repoSettings), after),
            after.quarantined(repoSettings.autoQuarantine()),
            now);
    TestCaseEvent event =
        TestCaseEvents.quarantineChanged(
            org,
            testId,
            before.quarantineVersion(),
            item,
            before.quarantine(),
            setting,
            reason,
            now);
    if (!cases.setQuarantine(org, testId, before.quarantineVersion(), setting, reason, event)) {
      throw new ApiException(
          HttpStatus.CONFLICT, "the quarantine setting of " + testId + " changed meanwhile; retry");
    }
    publish(org, testId, event);
  }

  private void publish(String org, String testId, TestCaseEvent event) {
    events.publish(List.of(event));
    cases.clearPendingEvent(org, testId, event.id());
  }
}

package dev.trainyard.flaky.quarantine;

import com.mongodb.client.model.Filters;
import dev.trainyard.flaky.cases.QuarantineSetting;
import dev.trainyard.flaky.cases.TestCase;
import dev.trainyard.flaky.cases.TestCaseJson;
import dev.trainyard.flaky.cases.TestCaseRequests;
import dev.trainyard.flaky.cases.TestCaseStore;
import dev.trainyard.flaky.events.EventPublisher;
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
 * changed override publishes {@code test_case.quarantining_setting_changed} before it is stored.
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
    Bson always = Filters.eq("quarantine", QuarantineSetting.ALWAYS_QUARANTINE.name());
    Bson which =
        repoSettings.autoQuarantine()
            ? Filters.or(
                always,
                Filters.and(
                    Filters.eq("quarantine", QuarantineSetting.UNSPECIFIED.name()),
                    Filters.eq("status.value", "flaky")))
            : always;
    List<Map<String, Object>> tests = new ArrayList<>();
    for (Document doc :
        cases
            .collection()
            .find(Filters.and(Filters.eq("org", org), Filters.eq("repo", repo.key()), which))) {
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
    TestCase before = TestCaseRequests.find(cases, org, repo, testId);
    if (before.quarantine() == setting) {
      return; // nothing changes, nothing to tell
    }
    Instant now = clock.instant();
    RepoSettings repoSettings = settings.get(org, repo);
    TestCase after =
        new TestCase(
            before.org(),
            before.repo(),
            before.testId(),
            before.name(),
            before.classname(),
            before.parent(),
            before.filePath(),
            before.variant(),
            before.status(),
            before.runs(),
            setting,
            before.quarantineVersion() + 1,
            before.ticketUrl());
    Map<String, Object> item =
        TestCaseJson.item(
            after,
            repo,
            publicUrl,
            repoSettings.owners(settings.parsed(repoSettings), after.filePath()),
            after.quarantined(repoSettings.autoQuarantine()),
            now);
    events.publish(
        List.of(
            TestCaseEvents.quarantineChanged(
                org,
                testId,
                before.quarantineVersion(),
                item,
                before.quarantine(),
                setting,
                reason,
                now)));
    if (!cases.setQuarantine(org, testId, before.quarantineVersion(), setting, reason)) {
      throw new ApiException(
          HttpStatus.CONFLICT, "the quarantine setting of " + testId + " changed meanwhile; retry");
    }
  }
}

package dev.trainyard.flaky.listing;

import dev.trainyard.common.token.SignedToken;
import dev.trainyard.flaky.cases.TestCase;
import dev.trainyard.flaky.cases.TestCaseJson;
import dev.trainyard.flaky.cases.TestCaseStore;
import dev.trainyard.flaky.http.ApiException;
import dev.trainyard.flaky.http.Caller;
import dev.trainyard.flaky.http.JsonAnswers;
import dev.trainyard.flaky.owners.Codeowners;
import dev.trainyard.flaky.repo.Repo;
import dev.trainyard.flaky.repo.RepoSettings;
import dev.trainyard.flaky.repo.RepoSettingsStore;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * {@code POST /v1/flaky-tests/list-unhealthy-tests} (API.md §5): keyset pages of one status, with
 * {@code next}, {@code prev} and {@code last} tokens signed over the query (organization, repo,
 * status, page size), so a token of another query, altered or made up, is a 400. Rows that become
 * unhealthy during a walk enter at the front (newest status first) and do not shift the pages being
 * walked.
 */
public class ListHandler {
  static final String TOKEN_FIELD = "page_query.page_token";
  private final TestCaseStore cases;
  private final RepoSettingsStore settings;
  private final byte[] secret;
  private final String publicUrl;
  private final InstantSource clock;

  public ListHandler(
      TestCaseStore cases,
      RepoSettingsStore settings,
      byte[] secret,
      String publicUrl,
      InstantSource clock) {
    this.cases = cases;
    this.settings = settings;
    this.secret = secret.clone();
    this.publicUrl = publicUrl;
    this.clock = clock;
  }

  public Mono<ServerResponse> list(ServerRequest request) {
    String org = Caller.org(request);
    return JsonAnswers.body(request)
        .flatMap(
            body -> {
              Repo repo = body.repo();
              String slug = body.name("org_url_slug");
              String status =
                  body.optionalString("status")
                      .map(s -> s.toUpperCase(Locale.ROOT))
                      .filter(s -> s.equals("FLAKY") || s.equals("BROKEN"))
                      .orElseThrow(
                          () -> ApiException.badRequest("status must be one of FLAKY, BROKEN"));
              if (body.node("page_query").filter(n -> n.isObject()).isEmpty()) {
                throw ApiException.badRequest(
                    "page_query is required and must be an object with page_size");
              }
              int size =
                  body.optionalLong("page_query.page_size", 1, 100)
                      .orElseThrow(
                          () ->
                              ApiException.badRequest(
                                  "page_query.page_size must be an integer between 1 and 100"))
                      .intValue();
              String tokenText = body.optionalString(TOKEN_FIELD).orElse("");
              if (!slug.equals(org)) {
                throw ApiException.notFound(
                    "org_url_slug " + slug + " is not the organization of this API token");
              }
              String scope =
                  String.join("|", "unhealthy", org, repo.key(), status, Integer.toString(size));
              PageToken token =
                  tokenText.isEmpty()
                      ? null
                      : SignedToken.decode(tokenText, PageToken.class, secret, scope, TOKEN_FIELD);
              return Mono.fromCallable(
                      () -> page(org, repo, status.toLowerCase(Locale.ROOT), size, token, scope))
                  .subscribeOn(Schedulers.boundedElastic());
            })
        .flatMap(JsonAnswers::ok);
  }

  Map<String, Object> page(
      String org, Repo repo, String status, int size, PageToken token, String scope) {
    UnhealthyTests query = new UnhealthyTests(cases.collection(), org, repo.key(), status);
    long total = query.count();
    int totalPages = (int) ((total + size - 1) / size);
    List<TestCase> rows;
    int index;
    boolean hasPrev;
    boolean hasNext;
    if (token == null) {
      rows = query.first(size + 1);
      hasNext = rows.size() > size;
      rows = rows.subList(0, Math.min(size, rows.size()));
      index = 0;
      hasPrev = false;
    } else if (PageToken.AFTER.equals(token.d())) {
      PageToken.Row boundary = new PageToken.Row(token.s(), token.i());
      rows = query.after(boundary, size + 1);
      hasNext = rows.size() > size;
      rows = rows.subList(0, Math.min(size, rows.size()));
      index = token.p();
      hasPrev = index > 0;
      if (rows.isEmpty() && total > 0) {
        // the rows after the boundary left: no dead end — prev leads back to the boundary row
        return answer(
            List.of(),
            total,
            totalPages,
            "",
            encode(PageToken.before(boundary.justAfter(), Math.max(index - 1, 0)), scope),
            index,
            scope);
      }
    } else if (PageToken.BEFORE.equals(token.d())) {
      List<TestCase> nearestFirst = query.before(new PageToken.Row(token.s(), token.i()), size + 1);
      if (nearestFirst.isEmpty()) {
        return page(org, repo, status, size, null, scope); // the rows before left: the first page
      }
      hasPrev = nearestFirst.size() > size;
      rows = new ArrayList<>(nearestFirst.subList(0, Math.min(size, nearestFirst.size())));
      Collections.reverse(rows);
      // page_index counts the walk; the page with nothing before it is page 0 whatever the count
      index = hasPrev ? Math.max(token.p(), 1) : 0;
      hasNext =
          !rows.isEmpty()
              && !query.after(UnhealthyTests.key(rows.get(rows.size() - 1)), 1).isEmpty();
    } else {
      index = Math.max(totalPages - 1, 0);
      long onLast = total - (long) index * size;
      // limit(0) is no limit in Mongo: with no rows counted, the last page is empty, not all rows
      rows = total == 0 ? new ArrayList<>() : new ArrayList<>(query.last((int) onLast));
      Collections.reverse(rows);
      hasPrev = index > 0;
      hasNext = false;
    }
    Instant now = clock.instant();
    RepoSettings repoSettings = settings.get(org, repo);
    Codeowners owners = settings.parsed(org, repoSettings);
    List<Map<String, Object>> tests = new ArrayList<>(rows.size());
    for (TestCase tc : rows) {
      tests.add(
          TestCaseJson.item(
              tc,
              repo,
              publicUrl,
              repoSettings.owners(owners, tc),
              tc.quarantined(repoSettings.autoQuarantine()),
              now));
    }
    String next =
        hasNext && !rows.isEmpty()
            ? encode(
                PageToken.after(UnhealthyTests.key(rows.get(rows.size() - 1)), index + 1), scope)
            : "";
    String prev =
        hasPrev && !rows.isEmpty()
            ? encode(PageToken.before(UnhealthyTests.key(rows.get(0)), index - 1), scope)
            : "";
    return answer(tests, total, totalPages, next, prev, index, scope);
  }

  private Map<String, Object> answer(
      List<Map<String, Object>> tests,
      long total,
      int totalPages,
      String next,
      String prev,
      int index,
      String scope) {
    Map<String, Object> page = new LinkedHashMap<>();
    page.put("total_rows", total);
    page.put("total_pages", totalPages);
    page.put("next_page_token", next);
    page.put("prev_page_token", prev);
    page.put("last_page_token", total > 0 ? encode(PageToken.last(totalPages - 1), scope) : "");
    page.put("page_index", total == 0 ? 0 : index);
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("tests", tests);
    answer.put("page", page);
    return answer;
  }

  private String encode(PageToken token, String scope) {
    return SignedToken.encode(token, secret, scope);
  }
}

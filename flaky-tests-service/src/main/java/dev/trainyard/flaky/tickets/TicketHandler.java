package dev.trainyard.flaky.tickets;

import dev.trainyard.flaky.cases.TestCaseRequests;
import dev.trainyard.flaky.cases.TestCaseStore;
import dev.trainyard.flaky.http.ApiException;
import dev.trainyard.flaky.http.Caller;
import dev.trainyard.flaky.http.JsonAnswers;
import dev.trainyard.flaky.repo.Repo;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * {@code POST /v1/flaky-tests/link-ticket-to-test-case {repo, test_id, ticket_url}}: the ticket
 * shown as {@code ticket.html_url}; linking again replaces it.
 */
public class TicketHandler {
  private static final int MAX_URL = 2048;
  private final TestCaseStore cases;

  public TicketHandler(TestCaseStore cases) {
    this.cases = cases;
  }

  public Mono<ServerResponse> link(ServerRequest request) {
    String org = Caller.org(request);
    return JsonAnswers.body(request)
        .flatMap(
            body -> {
              Repo repo = body.repo();
              String testId = TestCaseRequests.testId(body);
              String url =
                  body.optionalString("ticket_url")
                      .filter(u -> u.length() <= MAX_URL && u.matches("(?i)https?://\\S+"))
                      .orElseThrow(
                          () ->
                              ApiException.badRequest(
                                  "ticket_url is required: an http(s) URL of at most 2048"
                                      + " characters"));
              return Mono.fromRunnable(
                      () -> {
                        TestCaseRequests.find(cases, org, repo, testId);
                        cases.setTicket(org, testId, url);
                      })
                  .subscribeOn(Schedulers.boundedElastic())
                  .then(JsonAnswers.empty());
            });
  }
}

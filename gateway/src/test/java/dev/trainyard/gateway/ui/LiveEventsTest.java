package dev.trainyard.gateway.ui;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What an event on the events topic tells an open page: which queue and PR changed, and which pages
 * (an organization's overview, one queue's page, the unhealthy tests) refetch for it.
 */
class LiveEventsTest {
  private static final String MERGED =
      "{\"type\":\"pull_request.merged\",\"pr_number\":7,\"target_branch\":\"release/1.x\","
          + "\"repository\":{\"host\":\"git.example:8443\",\"owner\":\"acme\",\"name\":\"app\"}}";

  @ParameterizedTest(name = "{1}: {3}")
  @CsvSource(
      delimiter = '|',
      nullValues = "NULL",
      value = {
        "acme | pull_request.merged | MERGED | acme/git.example:8443/acme/app:release/1.x | 7",
        "acme | pull_request_batch.failed | MERGED | acme/git.example:8443/acme/app:release/1.x | 7",
        "acme | queue.frozen | MERGED | acme/git.example:8443/acme/app:release/1.x | 7",
        "acme | test_case.status_changed | {\"test\":{}} | NULL | 0",
        "acme | pull_request.merged | not json | NULL | 0",
        "acme | pull_request.merged | {\"pr_number\":7} | NULL | 0",
      })
  void readsWhatChanged(String org, String type, String body, String queue, long pr) {
    LiveEvents.Change change = LiveEvents.parse(org, type, body.equals("MERGED") ? MERGED : body);

    assertThat(change.org()).isEqualTo(org);
    assertThat(change.type()).isEqualTo(type);
    assertThat(change.queue()).isEqualTo(queue);
    assertThat(change.prNumber()).isEqualTo(pr);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      nullValues = "NULL",
      value = {
        "NULL | pull_request.merged",
        "acme | NULL",
      })
  void aRecordWithoutItsHeadersIsNoChange(String org, String type) {
    assertThat(LiveEvents.parse(org, type, MERGED)).isNull();
  }

  @ParameterizedTest(name = "{0} on {1}: {3}")
  @CsvSource(
      delimiter = '|',
      nullValues = "NULL",
      value = {
        "org | acme/h/o/app:main | pull_request.merged | true",
        "org | NULL | test_case.status_changed | false",
        "queue:acme/h/o/app:main | acme/h/o/app:main | pull_request.merged | true",
        "queue:acme/h/o/app:main | acme/h/o/app:dev | pull_request.merged | false",
        "queue:acme/h/o/app:main | acme/h/o/other:main | pull_request.merged | false",
        "flaky | NULL | test_case.status_changed | true",
        "flaky | acme/h/o/app:main | pull_request.merged | false",
        "elsewhere | acme/h/o/app:main | pull_request.merged | false",
      })
  void aPageRefetchesOnlyForWhatItShows(String scope, String queue, String type, boolean yes) {
    LiveEvents.Change change = new LiveEvents.Change("acme", queue, 1, type);

    assertThat(Dashboard.concerns(scope, change)).isEqualTo(yes);
  }
}

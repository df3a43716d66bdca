package dev.trainyard.common.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class EventTypeFilterTest {
  @ParameterizedTest(name = "{0} wants {1}: {2}")
  @CsvSource({
    "'', pull_request.merged, true",
    "'*', test_case.status_changed, true",
    "pull_request.*, pull_request.merged, true",
    "pull_request.*, pull_request_batch.merged, false",
    "pull_request.merged, pull_request.merged, true",
    "pull_request.merged, pull_request.failed, false",
    "test_case.*|pull_request.failed, pull_request.failed, true",
    "'', audit_event.recorded, false",
    "'*', audit_event.recorded, false",
    "audit_event.*, audit_event.recorded, true",
    "'*|audit_event.recorded', audit_event.recorded, true",
    "'audit_event.*', queue.updated, false"
  })
  void matchesExactTypesPrefixesAndEverything(String filters, String type, boolean wanted) {
    List<String> list = filters.isEmpty() ? null : List.of(filters.split("\\|"));

    assertThat(EventTypeFilter.matches(list, type)).isEqualTo(wanted);
  }

  @ParameterizedTest
  @CsvSource({
    "pull_request.*, true",
    "*, true",
    "pull_request.merged, true",
    "pull*, false",
    "'', false",
    "PULL_REQUEST.*, false",
    "pull_request..merged, false"
  })
  void validatesFilters(String filter, boolean valid) {
    assertThat(EventTypeFilter.isValid(filter)).isEqualTo(valid);
  }
}

package dev.trainyard.gateway.ui;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** After sign-in or a form, a browser goes only to a dashboard path of this site. */
class SafePathsTest {

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      nullValues = "NULL",
      value = {
        "/ui/webhooks | /ui/webhooks",
        "/ui/queues/github.com/acme/app/main | /ui/queues/github.com/acme/app/main",
        "/ui/flaky-tests/github.com/acme/app?status=flaky | /ui/flaky-tests/github.com/acme/app?status=flaky",
        "NULL | /ui/",
        "'' | /ui/",
        "//evil.example/ui/ | /ui/",
        "https://evil.example/ui/ | /ui/",
        "javascript:alert(1) | /ui/",
        "/\\evil.example | /ui/",
        "/v1/getQueue | /ui/",
        "/ui/../admin/v1/createApiToken | /ui/",
        "/ui/%2e%2e/admin | /ui/",
        "/ui//evil.example | /ui/",
        "/ui/webhooks#x | /ui/",
        "ui/webhooks | /ui/",
      })
  void keepsOnlyDashboardPathsOfThisSite(String candidate, String expected) {
    assertThat(SafePaths.sameSite(candidate, "/ui/")).isEqualTo(expected);
  }

  @org.junit.jupiter.api.Test
  void refusesAPathLongerThanAnyPageHas() {
    assertThat(SafePaths.sameSite("/ui/" + "a".repeat(2_000), "/ui/")).isEqualTo("/ui/");
  }
}

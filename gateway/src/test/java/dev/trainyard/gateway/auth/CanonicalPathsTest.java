package dev.trainyard.gateway.auth;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * One spelling per path: escapes only on the dashboard's pages of a repository and the links to
 * them, and only the escapes {@code PathSegments} writes.
 */
class CanonicalPathsTest {

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "/v1/getQueue | true",
        "/ui/ | true",
        "/ui/queues/github.com/acme/app/main | true",
        "/ui/queues/git.local%3A3000/acme/app/release%2B1 | true",
        "/ui/actions/queues/github.com/acme/app/feature%231/cancel | true",
        "/ui/flaky-tests/git.local%3A3000/acme/app | true",
        "/acme/merge-queue/github.com/acme/app/release%2B1/5 | true",
        "/v1/get%51ueue | false",
        "/v1/getQueue%3B | false",
        "/ui/webhooks%3F | false",
        "/ui/queues/github.com/acme/app/m%61in | false",
        "/ui/queues/github.com/acme/app/%2E%2E | false",
        "/ui/queues/github.com/acme/app/a%2Fb | false",
        "/ui/queues/github.com/acme/app/a%2fb | false",
        "/ui/queues/github.com/acme/app/a%2bb | false",
        "/ui/queues/github.com/acme/app/%5F | false",
        "/ui/queues/github.com/acme/app/../x | false",
        "/ui/queues/github.com//app | false",
        "/ui/queues/github.com/acme/app/main/ | false",
        "/ui/queues/github.com/acme/app/a;b | false",
      })
  void takesEscapesOnlyWhereNamesAreAndInOneSpelling(String path, boolean canonical) {
    assertThat(CanonicalPaths.isCanonical(path)).isEqualTo(canonical);
  }
}

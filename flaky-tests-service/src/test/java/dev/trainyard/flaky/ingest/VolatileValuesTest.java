package dev.trainyard.flaky.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Issue 49, item 9: a value that changes every run does not make a new test every run. */
class VolatileValuesTest {

  @ParameterizedTest(name = "{0} → {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "test_fetch[3f2a9c1e-0b7d-4e5f-9a8b-1c2d3e4f5a6b] | test_fetch[<uuid>]",
        "test_at[2026-11-29T21:30:05.123Z] | test_at[<time>]",
        "test_at[2026-11-29 21:30:05+01:00] | test_at[<time>]",
        "created at 1764451805123 | created at <time>",
        "[1] http://localhost:54321/health | [1] http://localhost:<port>/health",
        "connects to 127.0.0.1:40117 | connects to 127.0.0.1:<port>",
        "test_server[port=54321] | test_server[port=<port>]",
        "TestServer/port:8080 | TestServer/port:<port>",
        "[1] 404 | [1] 404",
        "test_on[2026-11-29] | test_on[2026-11-29]",
        "version 1.47.0 | version 1.47.0",
        "test_id[12345678901] | test_id[12345678901]",
        "sums 1 and 2 | sums 1 and 2",
      })
  void valuesThatChangeEveryRunAreWrittenInTheirPlace(String name, String normalised) {
    assertThat(VolatileValues.normalised(name)).isEqualTo(normalised);
  }

  @org.junit.jupiter.api.Test
  void twoRunsOfOneParameterisedTestAreOneTest() {
    assertThat(VolatileValues.normalised("test_server[localhost:54321-2026-11-29T10:00:00Z]"))
        .isEqualTo(VolatileValues.normalised("test_server[localhost:40117-2026-11-30T11:12:13Z]"));
  }
}

package dev.trainyard.cli.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RefusedTest {
  @ParameterizedTest(name = "{0} -> exit {1}")
  @CsvSource({
    "400, 3, the server refused the request",
    "401, 4, the token was refused",
    "403, 4, the token's role does not allow this",
    "404, 5, not found",
    "409, 3, conflict",
    "413, 3, the request is too large",
    "422, 3, the request does not match the earlier one",
    "500, 6, the server failed",
    "501, 6, the server failed"
  })
  void eachStatusHasItsExitCodeAndMeaning(int status, int exit, String meaning) {
    Refused refused = Refused.answer(status, "repo.name must not be empty\n");
    assertThat(refused.exit()).isEqualTo(exit);
    assertThat(refused.getMessage())
        .startsWith(meaning)
        .contains("(HTTP " + status + ")")
        .endsWith(": repo.name must not be empty");
  }

  @Test
  void theServersSentenceStaysOneLine() {
    Refused refused = Refused.answer(400, "first line\nsecond line\n" + "x".repeat(1000));
    assertThat(refused.getMessage()).doesNotContain("\n").endsWith(": first line");
    assertThat(Refused.answer(400, "y".repeat(1000)).getMessage()).hasSizeLessThan(400);
    assertThat(Refused.answer(404, "").getMessage()).isEqualTo("not found (HTTP 404)");
  }
}

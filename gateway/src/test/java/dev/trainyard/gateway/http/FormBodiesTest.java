package dev.trainyard.gateway.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.util.MultiValueMap;

/** A form's fields as browsers encode them, and the limits that keep a hostile one small. */
class FormBodiesTest {

  private static MultiValueMap<String, String> parse(String body, int maxFields) {
    return FormBodies.parse(body.getBytes(StandardCharsets.UTF_8), maxFields);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "token=ty_abc&next=%2Fui%2Fqueues | token | ty_abc",
        "token=ty_abc&next=%2Fui%2Fqueues | next | /ui/queues",
        "reason=two+words%21 | reason | two words!",
        "a=1&&&b=2 | b | 2",
        "flag | flag | ''",
        "k=%E2%9C%93 | k | ✓",
        "=orphan | '' | orphan",
      })
  void readsFieldsAsBrowsersEncodeThem(String body, String field, String value) {
    assertThat(parse(body, 16).getFirst(field)).isEqualTo(value);
  }

  @Test
  void keepsRepeatedFieldsInOrder() {
    assertThat(parse("days=mon&days=tue", 16).get("days")).isEqualTo(List.of("mon", "tue"));
  }

  @Test
  void emptyPairsCountForNothingButFieldsPastTheLimitAreRefused() {
    assertThat(parse("&".repeat(10_000) + "a=1", 1).getFirst("a")).isEqualTo("1");
    assertThatThrownBy(() -> parse("a=&".repeat(17), 16))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.status().value()).isEqualTo(400);
              assertThat(e.getMessage()).isEqualTo("a form may have at most 16 fields");
            });
  }

  @Test
  void aMalformedEscapeIsA400() {
    assertThatThrownBy(() -> parse("token=%zz", 16))
        .isInstanceOfSatisfying(
            ApiException.class, e -> assertThat(e.status().value()).isEqualTo(400));
  }
}

package dev.trainyard.flaky.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trainyard.flaky.http.ApiException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** An upload's {@code renames} (issue 49, item 9): read strictly, every bad shape a 400. */
class RenameTest {
  private static final String ID = "cd7ef2fe-0ec1-5e40-a323-027029579f5b";

  @Test
  void renamesAreReadWithTheirNamesNormalisedAsTestNamesAre() {
    assertThat(
            Rename.parse(
                "[{\"from\":\""
                    + ID
                    + "\",\"classname\":\"com.acme.A\",\"name\":\"pays[port=54321]\"},"
                    + "{\"from\":\""
                    + ID.toUpperCase()
                    + "\",\"name\":\"sums\"}]"))
        .containsExactly(
            new Rename(ID, "com.acme.A", "pays[port=<port>]"), new Rename(ID, null, "sums"));
    assertThat(Rename.parse("[]")).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "{}",
        "not json",
        "[{\"name\":\"sums\"}]",
        "[{\"from\":\"cd7ef2fe-0ec1-5e40-a323-027029579f5b\"}]",
        "[{\"from\":\"cd7ef2fe-0ec1-5e40-a323-027029579f5b\",\"name\":\" \"}]",
        "[{\"from\":\"cd7ef2fe-0ec1-5e40-a323-027029579f5b\",\"name\":7}]",
        "[{\"from\":\"not-a-uuid\",\"name\":\"sums\"}]",
        "[1]"
      })
  void anyOtherShapeIsA400(String json) {
    assertThatThrownBy(() -> Rename.parse(json))
        .isInstanceOf(ApiException.class)
        .hasMessageStartingWith("renames");
  }

  @Test
  void moreThanAHundredIsA400() {
    String one = "{\"from\":\"" + ID + "\",\"name\":\"t\"}";
    String many = "[" + String.join(",", java.util.Collections.nCopies(101, one)) + "]";

    assertThatThrownBy(() -> Rename.parse(many)).isInstanceOf(ApiException.class);
    assertThat(Rename.parse("[" + String.join(",", java.util.Collections.nCopies(100, one)) + "]"))
        .hasSize(100);
  }

  @Test
  void aRenameNamesTheTestOfItsClassnameAndName() {
    TestCaseResult sums =
        new TestCaseResult("S", "com.acme.A", "sums", null, Outcome.PASSED, 1, 0, null);

    assertThat(new Rename(ID, "com.acme.A", "sums").names(sums)).isTrue();
    assertThat(new Rename(ID, null, "sums").names(sums)).isTrue();
    assertThat(new Rename(ID, "com.acme.B", "sums").names(sums)).isFalse();
    assertThat(List.of(new Rename(ID, null, "adds")).get(0).names(sums)).isFalse();
  }
}

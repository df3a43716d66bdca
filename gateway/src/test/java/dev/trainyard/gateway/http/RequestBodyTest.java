package dev.trainyard.gateway.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trainyard.common.json.InvalidRequestException;
import dev.trainyard.common.queue.MergeMethod;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The strict reading rules of API.md §1, one row per rule. */
class RequestBodyTest {

  /** A body, what is read from it, and the value or the error sentence expected. */
  record Row(String json, Function<RequestBody, Object> read, Object value, String error) {
    @Override
    public String toString() {
      return json + (error == null ? " -> " + value : " -> 400 " + error);
    }
  }

  static Row ok(String json, Function<RequestBody, Object> read, Object value) {
    return new Row(json, read, value, null);
  }

  static Row bad(String json, Function<RequestBody, Object> read, String error) {
    return new Row(json, read, null, error);
  }

  static final String PR_NUMBER = "pr.number must be an integer between 0 and 4294967295";
  static final String RISK = "risk must be a number between 0 and 1";

  static Stream<Row> rows() {
    return Stream.of(
        ok("{\"pr\":{\"number\":123}}", RequestBody::prNumber, 123L),
        ok("{\"pr\":{\"number\":\"123\"}}", RequestBody::prNumber, 123L),
        ok("{\"pr\":{\"number\":4294967295}}", RequestBody::prNumber, 4294967295L),
        ok("{\"pr\":{\"number\":0}}", RequestBody::prNumber, 0L),
        bad("{\"pr\":{\"number\":-1}}", RequestBody::prNumber, PR_NUMBER),
        bad("{\"pr\":{\"number\":4294967296}}", RequestBody::prNumber, PR_NUMBER),
        bad("{\"pr\":{\"number\":\"4294967296\"}}", RequestBody::prNumber, PR_NUMBER),
        bad("{\"pr\":{\"number\":1.5}}", RequestBody::prNumber, PR_NUMBER),
        bad("{\"pr\":{\"number\":1.0}}", RequestBody::prNumber, PR_NUMBER),
        bad("{\"pr\":{\"number\":\"12a\"}}", RequestBody::prNumber, PR_NUMBER),
        bad("{\"pr\":{\"number\":\" 12\"}}", RequestBody::prNumber, PR_NUMBER),
        bad("{\"pr\":{}}", RequestBody::prNumber, PR_NUMBER),
        bad("{\"pr\":7}", RequestBody::prNumber, "pr must be an object"),
        ok("{\"take\":7}", b -> b.optionalLong("take", 1, 100).orElseThrow(), 7L),
        bad(
            "{\"take\":\"7\"}",
            b -> b.optionalLong("take", 1, 100),
            "take must be an integer between 1 and 100"),
        bad(
            "{\"take\":101}",
            b -> b.optionalLong("take", 1, 100),
            "take must be an integer between 1 and 100"),
        ok("{\"take\":null}", b -> b.optionalLong("take", 1, 100).isPresent(), false),
        ok("{\"batch\":true}", b -> b.optionalBoolean("batch").orElseThrow(), true),
        bad("{\"batch\":\"true\"}", b -> b.optionalBoolean("batch"), "batch must be true or false"),
        ok("{\"risk\":0.02}", b -> b.optionalFraction("risk").orElseThrow(), 0.02),
        ok("{\"risk\":0}", b -> b.optionalFraction("risk").orElseThrow(), 0.0),
        ok("{\"risk\":1}", b -> b.optionalFraction("risk").orElseThrow(), 1.0),
        ok("{\"risk\":null}", b -> b.optionalFraction("risk").isPresent(), false),
        bad("{\"risk\":1.01}", b -> b.optionalFraction("risk"), RISK),
        bad("{\"risk\":-0.0001}", b -> b.optionalFraction("risk"), RISK),
        bad("{\"risk\":1e400}", b -> b.optionalFraction("risk"), RISK),
        bad("{\"risk\":\"0.2\"}", b -> b.optionalFraction("risk"), RISK),
        bad("{\"risk\":[0.2]}", b -> b.optionalFraction("risk"), RISK),
        ok(
            "{\"mergeMethod\":\"SQUASH\"}",
            b -> b.optionalEnum("mergeMethod", MergeMethod.class).orElseThrow(),
            MergeMethod.SQUASH),
        bad(
            "{\"mergeMethod\":\"zip\"}",
            b -> b.optionalEnum("mergeMethod", MergeMethod.class),
            "mergeMethod must be one of merge_commit|squash|rebase"),
        bad(
            "{\"mergeMethod\":1}",
            b -> b.optionalEnum("mergeMethod", MergeMethod.class),
            "mergeMethod must be a string"),
        bad(
            "{\"targetBranch\":\"\"}",
            b -> b.name("targetBranch"),
            "targetBranch must be a non-empty string"),
        bad(
            "{\"targetBranch\":\"a\\tb\"}",
            b -> b.name("targetBranch"),
            "without control characters"),
        bad(
            "{\"targetBranch\":\"" + "x".repeat(256) + "\"}",
            b -> b.name("targetBranch"),
            "at most 255 characters"),
        bad("{}", b -> b.name("targetBranch"), "targetBranch is required"),
        bad(
            "{\"repo\":\"acme/rocket\"}",
            RequestBody::repo,
            "repo is required and must be an object"),
        ok(
            "{\"repo\":{\"host\":\"h\",\"owner\":\"o\",\"name\":\"n\"},\"extra\":[1,2]}",
            b -> b.repo().slug(),
            "o/n"),
        ok("{\"l\":null}", b -> b.isExplicitNull("l"), true),
        ok("{}", b -> b.isExplicitNull("l"), false),
        bad(
            "{\"requiredStatuses\":[\"a\",2]}",
            b -> b.optionalStringList("requiredStatuses", 10),
            "requiredStatuses must be an array of strings"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  void readsStrictly(Row row) {
    RequestBody body = RequestBody.parse(row.json().getBytes(StandardCharsets.UTF_8));
    if (row.error() == null) {
      assertThat(row.read().apply(body)).isEqualTo(row.value());
    } else {
      assertThatThrownBy(() -> row.read().apply(body))
          .isInstanceOf(InvalidRequestException.class)
          .hasMessageContaining(row.error());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("notObjects")
  void onlyJsonObjectsAreBodies(String text) {
    assertThatThrownBy(() -> RequestBody.parse(text.getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(InvalidRequestException.class);
  }

  static Stream<String> notObjects() {
    return Stream.of(
        "",
        "[]",
        "42",
        "\"x\"",
        "{",
        "{\"a\":}",
        "[".repeat(100) + "]".repeat(100),
        "{\"a\":" + "[".repeat(70) + "]".repeat(70) + "}");
  }
}

package dev.trainyard.common.github;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.json.Json;
import dev.trainyard.common.queue.MergeMethod;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Which merge methods GitHub refuses on a branch, as a table of settings and rules. */
class LandingRulesTest {
  private static final String OPEN =
      "{\"full_name\":\"acme/rocket\",\"allow_merge_commit\":false,"
          + "\"allow_squash_merge\":true,\"allow_rebase_merge\":true}";
  private static final String NO_SQUASH =
      OPEN.replace("\"allow_squash_merge\":true", "\"allow_squash_merge\":false");
  private static final String STRICT_RULE =
      "[{\"type\":\"required_status_checks\",\"parameters\":{"
          + "\"strict_required_status_checks_policy\":true,\"required_status_checks\":[]}}]";
  private static final String LOOSE_RULE = STRICT_RULE.replace("true", "false");
  private static final String SIGNED_RULE = "[{\"type\":\"required_signatures\"}]";
  private static final String CLASSIC_STRICT = "{\"strict\":true,\"contexts\":[\"ci\"]}";
  private static final String SQUASH_ONLY_RULE =
      "[{\"type\":\"pull_request\",\"parameters\":{\"allowed_merge_methods\":[\"squash\"]}}]";

  static Stream<Arguments> rows() {
    return Stream.of(
        Arguments.of(MergeMethod.MERGE_COMMIT, OPEN, "[]", null),
        Arguments.of(MergeMethod.SQUASH, OPEN, "[]", null),
        Arguments.of(MergeMethod.SQUASH, NO_SQUASH, "[]", "allow_squash_merge"),
        Arguments.of(MergeMethod.REBASE, NO_SQUASH, "[]", null),
        Arguments.of(
            MergeMethod.MERGE_COMMIT,
            OPEN,
            "[{\"type\":\"required_linear_history\"}]",
            "linear history"),
        Arguments.of(MergeMethod.SQUASH, OPEN, "[{\"type\":\"required_linear_history\"}]", null),
        Arguments.of(MergeMethod.REBASE, OPEN, "[{\"type\":\"merge_queue\"}]", "merge queue"),
        Arguments.of(MergeMethod.REBASE, OPEN, SQUASH_ONLY_RULE, "allows only [squash]"),
        Arguments.of(MergeMethod.SQUASH, OPEN, SQUASH_ONLY_RULE, null),
        Arguments.of(MergeMethod.MERGE_COMMIT, OPEN, SQUASH_ONLY_RULE, null),
        Arguments.of(MergeMethod.SQUASH, OPEN, "[{\"type\":\"deletion\"}]", null),
        Arguments.of(MergeMethod.SQUASH, OPEN, STRICT_RULE, "up to date before merging"),
        Arguments.of(MergeMethod.REBASE, OPEN, STRICT_RULE, "strict_required_status_checks"),
        Arguments.of(MergeMethod.MERGE_COMMIT, OPEN, STRICT_RULE, null),
        Arguments.of(MergeMethod.SQUASH, OPEN, LOOSE_RULE, null),
        Arguments.of(MergeMethod.REBASE, OPEN, SIGNED_RULE, "does not sign"),
        Arguments.of(MergeMethod.SQUASH, OPEN, SIGNED_RULE, null));
  }

  /** Classic protection's strict flag, which GitHub shows only with administration access. */
  static Stream<Arguments> classic() {
    return Stream.of(
        Arguments.of(MergeMethod.SQUASH, CLASSIC_STRICT, "branch protection requires branches"),
        Arguments.of(MergeMethod.REBASE, CLASSIC_STRICT, "up to date"),
        Arguments.of(MergeMethod.MERGE_COMMIT, CLASSIC_STRICT, null),
        Arguments.of(MergeMethod.SQUASH, CLASSIC_STRICT.replace("true", "false"), null));
  }

  @ParameterizedTest(name = "{0} with classic {1}")
  @MethodSource("classic")
  void strictClassicProtectionRefusesLandingsThroughTheMergeEndpoint(
      MergeMethod method, String checks, String because) {
    var refusal =
        LandingRules.refusal(
            method,
            Json.mapper().readTree(OPEN),
            Json.mapper().readTree("[]"),
            Json.mapper().readTree(checks));
    if (because == null) {
      assertThat(refusal).isEmpty();
    } else {
      assertThat(refusal).hasValueSatisfying(r -> assertThat(r).contains(because));
    }
  }

  @ParameterizedTest(name = "{0} with {2}")
  @MethodSource("rows")
  void githubRefusesAMethodItsSettingsOrRulesForbid(
      MergeMethod method, String repository, String rules, String because) {
    var refusal =
        LandingRules.refusal(
            method,
            Json.mapper().readTree(repository),
            Json.mapper().readTree(rules),
            tools.jackson.databind.node.MissingNode.getInstance());
    if (because == null) {
      assertThat(refusal).isEmpty();
    } else {
      assertThat(refusal).hasValueSatisfying(r -> assertThat(r).contains(because));
    }
  }
}

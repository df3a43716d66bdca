package dev.trainyard.gateway.sso;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trainyard.gateway.auth.Role;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** How a deployment's rules turn a person's groups or teams into organizations and roles. */
class RoleRulesTest {
  private static final List<String> RULES =
      List.of(
          "viewers=acme:viewer",
          "eng = acme : operator",
          "platform=acme:admin",
          "platform=beta:viewer",
          "octo-org/Release-Team=acme:operator");

  static Stream<Arguments> people() {
    return Stream.of(
        Arguments.of("no group", List.of(), false, Map.of()),
        Arguments.of("an unmapped group", List.of("catering"), false, Map.of()),
        Arguments.of("one group", List.of("viewers"), false, Map.of("acme", Role.VIEWER)),
        Arguments.of(
            "spaces around the parts", List.of("eng"), false, Map.of("acme", Role.OPERATOR)),
        Arguments.of(
            "the highest role wins",
            List.of("viewers", "platform", "eng"),
            false,
            Map.of("acme", Role.ADMIN, "beta", Role.VIEWER)),
        Arguments.of("OIDC groups keep their case", List.of("Viewers"), false, Map.of()),
        Arguments.of(
            "GitHub's team slugs do not",
            List.of("Octo-Org/release-team"),
            true,
            Map.of("acme", Role.OPERATOR)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("people")
  void aPersonHoldsTheHighestRoleTheirKeysGive(
      String what, List<String> keys, boolean ignoreCase, Map<String, Role> expected) {
    RoleRules rules = RoleRules.parse("TRAINYARD_SSO_OIDC_ROLES", RULES, ignoreCase);

    assertThat(rules.memberships(keys)).isEqualTo(expected);
  }

  static Stream<Arguments> typos() {
    return Stream.of(
        Arguments.of("eng:acme:operator", "is not key=organization:role"),
        Arguments.of("eng=acme", "is not key=organization:role"),
        Arguments.of("eng=acme:owner", "people are viewer, operator or admin"),
        Arguments.of("ci=acme:submit", "people are viewer, operator or admin"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("typos")
  void aRuleThatIsNotOneStopsTheStart(String rule, String said) {
    assertThatThrownBy(() -> RoleRules.parse("TRAINYARD_SSO_OIDC_ROLES", List.of(rule), false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("TRAINYARD_SSO_OIDC_ROLES")
        .hasMessageContaining(said);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("claims")
  void aGroupsClaimIsAListOrOneName(String what, Object claim, List<String> groups) {
    assertThat(People.groups(claim)).isEqualTo(groups);
  }

  static Stream<Arguments> claims() {
    return Stream.of(
        Arguments.of("absent", null, List.of()),
        Arguments.of("one name", "eng", List.of("eng")),
        Arguments.of("a list", List.of("eng", "platform"), List.of("eng", "platform")));
  }
}

package dev.trainyard.gateway.sso;

import dev.trainyard.gateway.auth.Role;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A deployment's mapping from what an identity provider says about a person to organizations and
 * roles: rules written {@code key=org:role} ({@code platform-admins=acme:admin}, {@code
 * acme/release-team=acme:operator}). A person holds the highest role any of their keys gives in an
 * organization. People are {@code viewer}, {@code operator} or {@code admin}: {@code submit} is
 * CI's scope and sees no page, so a rule giving it is refused at start.
 */
public final class RoleRules {
  private static final Pattern RULE =
      Pattern.compile("\\s*(.+?)\\s*=\\s*([^:=\\s]+)\\s*:\\s*(\\w+)\\s*");

  private record Rule(String key, String org, Role role) {}

  /** A person's roles from least to most: viewer and operator read, operator and admin act. */
  private static final List<Role> PEOPLE = List.of(Role.VIEWER, Role.OPERATOR, Role.ADMIN);

  private final List<Rule> rules;
  private final boolean ignoreCase;

  private RoleRules(List<Rule> rules, boolean ignoreCase) {
    this.rules = rules;
    this.ignoreCase = ignoreCase;
  }

  /**
   * The rules of {@code setting} (the environment variable they came from, named in errors); keys
   * compared ignoring case when {@code ignoreCase} (GitHub's logins and team slugs are).
   *
   * @throws IllegalArgumentException for a rule that is not {@code key=org:role} with a person's
   *     role, so a typo stops the start instead of locking people out
   */
  public static RoleRules parse(String setting, List<String> written, boolean ignoreCase) {
    List<Rule> rules =
        written.stream().filter(w -> !w.isBlank()).map(w -> rule(setting, w, ignoreCase)).toList();
    return new RoleRules(rules, ignoreCase);
  }

  private static Rule rule(String setting, String written, boolean ignoreCase) {
    Matcher m = RULE.matcher(written);
    if (!m.matches()) {
      throw new IllegalArgumentException(
          setting + ": \"" + written + "\" is not key=organization:role");
    }
    Role role =
        Role.parse(m.group(3))
            .filter(PEOPLE::contains)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        setting
                            + ": \""
                            + written
                            + "\" names role "
                            + m.group(3)
                            + "; people are viewer, operator or admin"));
    String key = ignoreCase ? m.group(1).toLowerCase(Locale.ROOT) : m.group(1);
    return new Rule(key, m.group(2), role);
  }

  /** The organizations {@code keys} reach, each with the highest role they give there. */
  public Map<String, Role> memberships(Collection<String> keys) {
    List<String> held =
        keys.stream().map(k -> ignoreCase ? k.toLowerCase(Locale.ROOT) : k).toList();
    Map<String, Role> memberships = new HashMap<>();
    for (Rule rule : rules) {
      if (held.contains(rule.key())) {
        memberships.merge(rule.org(), rule.role(), (a, b) -> a.ordinal() >= b.ordinal() ? a : b);
      }
    }
    return memberships;
  }
}

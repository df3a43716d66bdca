package dev.trainyard.gateway.auth;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Someone signed in through an identity provider (API.md §8): {@code id} names them for the audit
 * log ({@code oidc:<subject>} or {@code github:<user id>}), {@code name} as people read it (an
 * e-mail address, a GitHub login), {@code provider} and {@code keys} what it said of them (their
 * groups; their GitHub teams and organizations), and {@code memberships} the organizations and
 * roles the deployment's rules give those keys now (see {@link Memberships}: read again on every
 * request, so a changed rule acts on open sessions).
 */
public record Person(
    String id, String name, String provider, List<String> keys, Map<String, Role> memberships) {
  public Person {
    keys = List.copyOf(keys);
    memberships = Map.copyOf(memberships);
  }

  /** This person with the memberships the rules give their keys now. */
  public Person withMemberships(Map<String, Role> now) {
    return new Person(id, name, provider, keys, now);
  }

  /** The organization a new session shows first: the only one, else the first by name. */
  public String firstOrganization() {
    return new TreeMap<>(memberships).firstKey();
  }

  /** This person as the route guard's caller in {@code org}; null when they have no role there. */
  public Caller callerIn(String org) {
    Role role = memberships.get(org);
    return role == null ? null : new Caller(org, role, "person:" + id, name);
  }
}

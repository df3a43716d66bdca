package dev.trainyard.gateway.auth;

import java.util.Map;
import java.util.TreeMap;

/**
 * Someone signed in through an identity provider (API.md §8): {@code id} names them for the audit
 * log ({@code oidc:<subject>} or {@code github:<login>}), {@code name} as people read it (an e-mail
 * address, a GitHub login), and {@code memberships} the organizations they may look at, each with
 * the role the deployment's mapping gave them at sign-in.
 */
public record Person(String id, String name, Map<String, Role> memberships) {
  public Person {
    memberships = Map.copyOf(memberships);
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

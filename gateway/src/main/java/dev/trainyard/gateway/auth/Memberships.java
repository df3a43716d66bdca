package dev.trainyard.gateway.auth;

import java.util.List;
import java.util.Map;

/**
 * The deployment's sign-in rules (API.md §8): the organizations, each with a role, that what an
 * identity provider said of a person ({@code keys}: groups, GitHub teams) gives them. In memory and
 * cheap, so the route guard asks on every request: a rule changed (and the gateway restarted) acts
 * on sessions already open.
 */
public interface Memberships {
  Map<String, Role> of(String provider, List<String> keys);
}

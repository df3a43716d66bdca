package dev.trainyard.gateway.auth;

import dev.trainyard.common.queue.WireEnum;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * What a token (and a session signed in with it) may do (issue 50): {@code viewer} reads, {@code
 * submit} is CI's narrow scope (submit, report, read a PR's state), {@code operator} also acts on
 * queues, {@code admin} also changes settings, webhooks and remotes. A token stored before roles
 * existed is {@code admin}, so nothing breaks on upgrade.
 */
public enum Role implements WireEnum {
  VIEWER(EnumSet.of(Permission.CI_READ, Permission.READ)),
  SUBMIT(EnumSet.of(Permission.CI_READ, Permission.SUBMIT)),
  OPERATOR(EnumSet.of(Permission.CI_READ, Permission.READ, Permission.SUBMIT, Permission.OPERATE)),
  ADMIN(EnumSet.allOf(Permission.class));

  private final Set<Permission> permissions;

  Role(Set<Permission> permissions) {
    this.permissions = permissions;
  }

  public boolean may(Permission permission) {
    return permissions.contains(permission);
  }

  /** The role a stored or sent name says, in any letter case; empty for no such role. */
  public static Optional<Role> parse(String name) {
    return WireEnum.parse(Role.class, name);
  }
}

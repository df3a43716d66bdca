package dev.trainyard.common.queue;

import java.util.Objects;

/**
 * A repository as one organization names it: organizations are separate tenants, so the same {@code
 * host/owner/name} of two organizations are two different repositories to trainyard.
 */
public record OrgRepo(String org, RepoRef repo) {
  public OrgRepo {
    Objects.requireNonNull(org, "org");
    Objects.requireNonNull(repo, "repo");
  }

  @Override
  public String toString() {
    return org + "/" + repo.host() + "/" + repo.slug();
  }
}

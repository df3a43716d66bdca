package dev.trainyard.flaky.repo;

import java.util.Map;

/** A repository as API requests name it. */
public record Repo(String host, String owner, String name) {
  /** {@code host/owner/name}: how documents refer to it. */
  public String key() {
    return host + "/" + owner + "/" + name;
  }

  public String htmlUrl() {
    return "https://" + host + "/" + owner + "/" + name;
  }

  public Map<String, String> wire() {
    return Map.of("host", host, "owner", owner, "name", name);
  }
}

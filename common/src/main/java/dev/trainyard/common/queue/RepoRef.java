package dev.trainyard.common.queue;

/** A repository on a source-hosting platform: {@code {"host","owner","name"}} on the wire. */
public record RepoRef(String host, String owner, String name) {
  public String slug() {
    return owner + "/" + name;
  }
}

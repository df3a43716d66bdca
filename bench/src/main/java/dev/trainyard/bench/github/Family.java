package dev.trainyard.bench.github;

import java.util.List;

/**
 * The endpoint families issue 30 counts GitHub's REST requests by. A request belongs to the first
 * family, in declaration order, one of whose markers its path holds: {@link #MERGES} comes before
 * {@link #PULLS} so that {@code PUT /pulls/{n}/merge} is a merge, and {@link #OTHER} takes the rest
 * (the repository, collaborator permissions).
 */
enum Family {
  TOKEN("installation/token", "/access_tokens", "/installation"),
  CHECK_RUNS("check runs", "/check-runs"),
  STATUSES("statuses", "/status"),
  REFS("refs/git", "/git/"),
  MERGES("merges", "/merges", "/merge"),
  PULLS("pulls", "/pulls"),
  COMMENTS("comments", "/comments"),
  LABELS("labels", "/labels"),
  REQUIRED_CHECKS("required checks", "/branches/"),
  OTHER("other");

  private final String label;
  private final List<String> markers;

  Family(String label, String... markers) {
    this.label = label;
    this.markers = List.of(markers);
  }

  /** How the benchmark's tables name it. */
  String label() {
    return label;
  }

  /** The family of a request to {@code path} (a raw path or GitHub's path template). */
  static Family of(String path) {
    for (Family family : values()) {
      if (family.markers.stream().anyMatch(path::contains)) {
        return family;
      }
    }
    return OTHER;
  }
}

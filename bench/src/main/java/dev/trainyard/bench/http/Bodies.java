package dev.trainyard.bench.http;

/** The request bodies the HTTP benchmarks send: a queue of repository {@code bench/<name>}. */
final class Bodies {
  private Bodies() {}

  /** The queue of {@code main} in repository {@code bench/<name>}. */
  static String queue(String name) {
    return "{\"repo\":{\"host\":\"github.com\",\"owner\":\"bench\",\"name\":\""
        + name
        + "\"},\"targetBranch\":\"main\"}";
  }

  /** PR {@code number} in that queue. */
  static String pr(String name, long number) {
    String queue = queue(name);
    return queue.substring(0, queue.length() - 1) + ",\"pr\":{\"number\":" + number + "}}";
  }
}

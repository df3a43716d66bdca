package dev.trainyard.gateway.metrics;

/**
 * The figures of one queue's lane, the label set {@code repo}, {@code repo_host}, {@code branch},
 * {@code queue_type} of every series it renders ({@code repo_host} keeps the same owner/name on two
 * hosts apart).
 */
public record LaneMetrics(
    String repo,
    String repoHost,
    String branch,
    String queueType,
    long depth,
    long awaitingMergeability,
    long testingActive,
    long merged,
    long failed,
    long cancelled,
    long restarts,
    Histogram waitDuration,
    Histogram testDuration,
    Histogram timeInQueue) {

  /** A lane with nothing in it: every gauge 0, every histogram empty. */
  public static LaneMetrics empty(String repo, String repoHost, String branch, String queueType) {
    return new LaneMetrics(
        repo,
        repoHost,
        branch,
        queueType,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        new Histogram(),
        new Histogram(),
        new Histogram());
  }
}

package dev.trainyard.common.view;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import java.util.List;

/**
 * A test run in the {@code test_runs} collection: written by the worker whenever what the run shows
 * changes, read by the gateway by id. {@code targets} names the impacted-target lists of its PRs,
 * which the gateway expands into the details' {@code impactedTargets} and {@code
 * impactedTargetsForTestedPrs} when it answers.
 *
 * <p>{@code queueType} is the lane the run tests in ({@link #MAIN} or {@link #BISECTION}) and
 * {@code concludedAt} when it reached a final state (null while it is live); getMergeQueueMetrics
 * reads both, and neither is part of the details' wire shape. Documents written before they existed
 * lack them.
 */
public record TestRunDocument(
    @JsonProperty("_id") String id,
    String queueKey,
    TestingDetails details,
    TargetRefs targets,
    String queueType,
    Instant concludedAt) {
  public static final String MAIN = "main";
  public static final String BISECTION = "bisection";

  /**
   * The stored target lists (digests in {@code impacted_targets}) of the run's own PRs ({@code
   * tested}) and of every PR its branch holds ({@code all}); {@link #ALL} stands for a PR that
   * impacts every target.
   */
  public record TargetRefs(List<String> tested, List<String> all) {
    public static final String ALL = "ALL";
  }
}

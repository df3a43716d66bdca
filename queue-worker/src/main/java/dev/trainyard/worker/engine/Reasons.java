package dev.trainyard.worker.engine;

/** The upper-case reason codes of API.md §7 that the engine gives its transitions. */
public final class Reasons {
  /** A direct merge did not hold: its PR is tested the usual way (extension). */
  public static final String DIRECT_MERGE_NOT_POSSIBLE = "DIRECT_MERGE_NOT_POSSIBLE";

  public static final String MERGE_ITEM_NOW_READY = "MERGE_ITEM_NOW_READY";
  public static final String PREREQUISITE_MERGE_ITEM_FAILED = "PREREQUISITE_MERGE_ITEM_FAILED";

  /** A run ahead was cancelled or restarted, so the runs behind it are rebuilt without it. */
  public static final String PREREQUISITE_MERGE_ITEM_CHANGED = "PREREQUISITE_MERGE_ITEM_CHANGED";

  public static final String TESTS_RESTARTED_BY_API_REQUEST = "TESTS_RESTARTED_BY_API_REQUEST";

  /** The run went red only on quarantined or excused flaky tests: its PRs are tested once more. */
  public static final String TESTS_RESTARTED_FLAKY = "TESTS_RESTARTED_FLAKY";

  public static final String SKIP_THE_LINE_INTERRUPTED = "SKIP_THE_LINE_INTERRUPTED";

  /** Someone else moved the target branch: every run is rebuilt on its new head. */
  public static final String TARGET_BRANCH_MOVED = "TARGET_BRANCH_MOVED";

  public static final String BISECTION_REQUIRED = "BISECTION_REQUIRED";

  /**
   * The host landed the PRs ahead of this one in its batch, then refused this one: it is tested
   * again, alone.
   */
  public static final String BATCH_PARTLY_MERGED = "BATCH_PARTLY_MERGED";

  /**
   * The host held a PR of the run when it was to land (a review requested changes): nothing landed;
   * the held PR waits, not ready, and the others are tested again.
   */
  public static final String LANDING_HELD = "LANDING_HELD";

  public static final String TEST_RUN_REQUIRED_STATUS_FAILED = "TEST_RUN_REQUIRED_STATUS_FAILED";
  public static final String TEST_RUN_TIMEOUT = "TEST_RUN_TIMEOUT";
  public static final String START_TEST_RUN_MERGE_CONFLICT = "START_TEST_RUN_MERGE_CONFLICT";

  /** The merge method (rebase) could not replay a tested PR onto the target. */
  public static final String MERGE_CONFLICT = "MERGE_CONFLICT";

  /** The source host refused to land a passed run (its protection, settings or rules). */
  public static final String MERGE_REFUSED = "MERGE_REFUSED";

  /**
   * The merge method would land a tree other than the tested one (a rebase dropping a branch's
   * merge commits); nothing moved.
   */
  public static final String LANDED_TREE_DIFFERS = "LANDED_TREE_DIFFERS";

  public static final String MERGE_GRAPH_MERGE = "MERGE_GRAPH_MERGE";
  public static final String MERGE_GRAPH_DIRECT_MERGE = "MERGE_GRAPH_DIRECT_MERGE";

  private Reasons() {}
}

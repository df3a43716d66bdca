package dev.trainyard.common.queue;

/**
 * trainyard's test branches, {@code trainyard-merge/<target>/<runId>}: the worker creates them, CI
 * tests them, and the flaky-tests service tells their runs from target-branch runs.
 */
public final class TestBranches {
  public static final String PREFIX = "trainyard-merge/";

  /**
   * Where a test branch is put together before it exists, one merge at a time, on hosts that can
   * only merge into a branch (GitHub): CI watches {@link #PREFIX}, so it sees one push per run.
   */
  public static final String SCRATCH_PREFIX = "trainyard-scratch/";

  private TestBranches() {}

  /** The scratch branch {@code testBranch} is built on. */
  public static String scratch(String testBranch) {
    return SCRATCH_PREFIX
        + (testBranch.startsWith(PREFIX) ? testBranch.substring(PREFIX.length()) : testBranch);
  }

  /** Whether {@code ref} (a branch name, or {@code refs/heads/...}) is one of trainyard's own. */
  public static boolean isOwn(String ref) {
    String branch = ref.startsWith("refs/heads/") ? ref.substring("refs/heads/".length()) : ref;
    return branch.startsWith(PREFIX) || branch.startsWith(SCRATCH_PREFIX);
  }

  /** The branch the run {@code runId} of a queue on {@code targetBranch} is tested on. */
  public static String name(String targetBranch, String runId) {
    return PREFIX + targetBranch + "/" + runId;
  }
}

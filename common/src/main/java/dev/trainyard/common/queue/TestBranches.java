package dev.trainyard.common.queue;

/**
 * trainyard's test branches, {@code trainyard-merge/<target>/<runId>}: the worker creates them, CI
 * tests them, and the flaky-tests service tells their runs from target-branch runs.
 */
public final class TestBranches {
  public static final String PREFIX = "trainyard-merge/";

  private TestBranches() {}

  /** The branch the run {@code runId} of a queue on {@code targetBranch} is tested on. */
  public static String name(String targetBranch, String runId) {
    return PREFIX + targetBranch + "/" + runId;
  }
}

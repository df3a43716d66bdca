package dev.trainyard.worker.engine;

/**
 * Every state change a test run may make (SCHEDULING.md "Test runs"), as one declared table. {@link
 * TestRun} refuses any other change; the engine's tests check that every change declared here is
 * made by some test.
 */
final class RunTransitions {
  static final TransitionTable<RunState> TABLE =
      // a chain or direct run starts building; a bisection half waits for a slot
      TransitionTable.of("test run", RunState.class, RunState.BUILDING, RunState.WAITING)
          // a half takes its slot; it is cancelled with a PR that left, failed when its sibling
          // cleared (skipping redundant tests), or split again then
          .allow(RunState.WAITING, RunState.BUILDING, RunState.CANCELLED, RunState.FAILED)
          // a build that conflicts is red (pending failure behind undecided runs) or fails at
          // once; a direct merge the host refuses is cancelled
          .allow(
              RunState.BUILDING,
              RunState.TESTING,
              RunState.RED,
              RunState.CANCELLED,
              RunState.FAILED)
          .allow(
              RunState.TESTING,
              RunState.PASSED,
              RunState.RED,
              RunState.FAILED,
              RunState.CANCELLED,
              RunState.CLEARED)
          // passed → failed: the host refused the landing or the merge method could not replay it;
          // passed → cleared: a batch one PR of which would land another tree than the tested one
          .allow(
              RunState.PASSED,
              RunState.SUCCEEDED,
              RunState.CANCELLED,
              RunState.FAILED,
              RunState.CLEARED)
          // red → passed: a green run behind it vindicates it (optimistic merge)
          .allow(RunState.RED, RunState.FAILED, RunState.CANCELLED, RunState.PASSED);

  private RunTransitions() {}
}

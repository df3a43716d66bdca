package dev.trainyard.worker.engine;

import dev.trainyard.common.command.RequiredCheck;
import java.util.List;

/**
 * What the source host declares required on the queue's target branch (API.md §6): {@code checks}
 * (empty: nothing is required), or {@code problem} when they could not be read. A queue without
 * this record (null in the aggregate) is on a host that declares nothing: plain git.
 */
public record RequiredChecks(List<RequiredCheck> checks, String problem) {
  public RequiredChecks {
    checks = checks == null ? List.of() : List.copyOf(checks);
  }

  /** Whether the declaration is known: without it no run may go green on the host's word. */
  public boolean readable() {
    return problem == null;
  }
}

package dev.trainyard.bench.scheduler;

import java.util.Comparator;
import java.util.List;

/**
 * One failure rate's sweep: the queue at every fixed batch size of {@link #SIZES}, and the queue
 * that chooses its batch size itself, all run on the same seed.
 */
record Sweep(Scenario rate, List<Simulation.Result> fixed, Simulation.Result adaptive) {
  /** The fixed batch sizes the adaptive queue is judged against (SCHEDULING.md). */
  static final int[] SIZES = {1, 2, 4, 8, 16};

  Sweep {
    fixed = List.copyOf(fixed);
  }

  /** The fixed size that merged the most. */
  Simulation.Result bestFixed() {
    return fixed.stream()
        .max(Comparator.comparingDouble(Simulation.Result::mergedPerHour))
        .orElseThrow();
  }

  /** The fixed run without batching. */
  Simulation.Result unbatched() {
    return fixed.get(0);
  }
}

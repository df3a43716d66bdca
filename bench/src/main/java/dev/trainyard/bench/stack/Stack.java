package dev.trainyard.bench.stack;

import java.time.Duration;
import java.util.Map;

/** A running trainyard the benchmarks drive: where it answers, and what its services cost. */
public interface Stack extends AutoCloseable {
  /** The gateway, without {@code /v1}. */
  String baseUrl();

  /** An organization's API token. */
  String token();

  /**
   * The CPU time each service has used so far (the processes of one Deployment summed; the
   * standalone is one process for all), from the operating system's counters.
   */
  Map<String, Duration> cpuTimes();

  /**
   * The time each service's JIT compilers have spent so far (empty where it is not read): on two
   * cores the compilers of a freshly started stack take a large share of the CPU for minutes, so a
   * phase's CPU is also given without them.
   */
  default Map<String, Duration> compileTimes() {
    return Map.of();
  }

  /**
   * The time each service's garbage collector threads have spent so far (empty where it is not
   * read): a phase that runs on a heap other phases filled collects more often.
   */
  default Map<String, Duration> gcTimes() {
    return Map.of();
  }

  /**
   * Collects each service's whole heap now where the stack can (the standalone; nothing otherwise),
   * so the phase after it does not start on the garbage the ones before it left.
   */
  default void collectGarbage() throws Exception {}

  @Override
  void close() throws InterruptedException;
}

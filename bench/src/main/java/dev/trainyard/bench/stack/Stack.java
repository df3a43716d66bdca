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

  @Override
  void close() throws InterruptedException;
}

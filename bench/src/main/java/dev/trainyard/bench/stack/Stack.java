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

  @Override
  void close() throws InterruptedException;
}

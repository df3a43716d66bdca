package dev.trainyard.bench.scheduler;

import java.time.Duration;

/**
 * One simulated queue: CI duration {@code ciTime} (each run takes 0.8–1.2 of it), the chance {@code
 * brokenRate} that a PR truly breaks the build, the chance {@code flakeRate} that a green build
 * reports red, {@code concurrency} runs at once, and {@code backlog} PRs always waiting (arrivals
 * above capacity), over {@code hours} of simulated time.
 */
record Scenario(
    String name,
    Duration ciTime,
    double brokenRate,
    double flakeRate,
    int concurrency,
    int backlog,
    int hours,
    long seed) {

  /** Expected merges per CI duration with speculation reset on failure: s(1 − s^C)/p. */
  double speculationBoundPerT() {
    double s = 1 - brokenRate;
    return brokenRate == 0 ? concurrency : s * (1 - Math.pow(s, concurrency)) / brokenRate;
  }

  double perHour(double perT) {
    return perT * Duration.ofHours(1).toMillis() / ciTime.toMillis();
  }
}

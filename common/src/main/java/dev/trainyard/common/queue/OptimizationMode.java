package dev.trainyard.common.queue;

/** Optional scheduling optimizations. */
public enum OptimizationMode implements WireEnum {
  OFF,
  BISECTION_SKIP_REDUNDANT_TESTS
}

package dev.trainyard.flaky.classify;

import java.util.Locale;

/** A test case's status, in order of severity. */
public enum Health {
  HEALTHY,
  FLAKY,
  BROKEN;

  /** The lower-case wire form ({@code status.value}). */
  public String wire() {
    return name().toLowerCase(Locale.ROOT);
  }
}

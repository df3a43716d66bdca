package dev.trainyard.flaky.cases;

import java.util.Locale;
import java.util.Optional;

/** A test case's quarantine override; {@code UNSPECIFIED} follows the repository's rule. */
public enum QuarantineSetting {
  ALWAYS_QUARANTINE,
  NEVER_QUARANTINE,
  UNSPECIFIED;

  /** Parses the wire form, case-insensitively. */
  public static Optional<QuarantineSetting> parse(String text) {
    for (QuarantineSetting s : values()) {
      if (s.name().equals(text.toUpperCase(Locale.ROOT))) {
        return Optional.of(s);
      }
    }
    return Optional.empty();
  }
}

package dev.trainyard.common.telemetry;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A meter label whose values can grow with the tenants (an organization): the first {@code cap}
 * distinct values are kept as they are, every later one is counted as {@link #OTHER}, so one
 * process never holds more than {@code cap + 1} series of the meter.
 */
public final class CappedLabel {
  public static final String OTHER = "_other";
  private final int cap;
  private final Set<String> admitted = ConcurrentHashMap.newKeySet();

  public CappedLabel(int cap) {
    this.cap = cap;
  }

  /** {@code value} itself while there is room for it (or it has one), else {@link #OTHER}. */
  public String of(String value) {
    if (value == null) {
      return "";
    }
    if (admitted.contains(value)) {
      return value;
    }
    synchronized (admitted) {
      if (admitted.size() < cap) {
        admitted.add(value);
        return value;
      }
    }
    return OTHER;
  }
}

package dev.trainyard.common.queue;

import java.util.Locale;
import java.util.Optional;

/**
 * A submission priority: a value 0..255 (lower is earlier) and the name it is shown with. The four
 * names map to fixed values; any other number keeps its digits as its name ({@code "50"}).
 */
public record Priority(int value, String name) {
  public static final int MAX_VALUE = 255;
  public static final Priority URGENT = new Priority(0, "urgent");
  public static final Priority HIGH = new Priority(10, "high");
  public static final Priority MEDIUM = new Priority(100, "medium");
  public static final Priority LOW = new Priority(200, "low");
  public static final Priority DEFAULT = MEDIUM;

  public static Optional<Priority> named(String name) {
    return switch (name.toLowerCase(Locale.ROOT)) {
      case "urgent" -> Optional.of(URGENT);
      case "high" -> Optional.of(HIGH);
      case "medium" -> Optional.of(MEDIUM);
      case "low" -> Optional.of(LOW);
      default -> Optional.empty();
    };
  }

  public static Priority ofValue(int value) {
    for (Priority p : new Priority[] {URGENT, HIGH, MEDIUM, LOW}) {
      if (p.value == value) {
        return p;
      }
    }
    return new Priority(value, Integer.toString(value));
  }

  /** Urgent PRs skip the line: they interrupt runs that would be behind them. */
  public boolean skipsTheLine() {
    return value == URGENT.value;
  }
}

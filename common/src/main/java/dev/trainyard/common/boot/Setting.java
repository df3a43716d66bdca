package dev.trainyard.common.boot;

import java.util.Locale;
import java.util.Optional;

/**
 * One setting a service reads at start: its Spring property name, whether the service cannot run
 * without it, and the shape its value must have. The environment variable that sets it is derived
 * the way Spring binds environment variables ({@code trainyard.max-queue-prs} ← {@code
 * TRAINYARD_MAX_QUEUE_PRS}).
 */
public record Setting(String property, boolean required, Rule rule) {

  public static Setting required(String property, Rule rule) {
    return new Setting(property, true, rule);
  }

  public static Setting optional(String property, Rule rule) {
    return new Setting(property, false, rule);
  }

  /** The environment variable an operator sets, e.g. {@code TRAINYARD_WEBHOOK_KEY}. */
  public String variable() {
    return property.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
  }

  /**
   * What is wrong with this setting given its value ({@code null} when unset), or empty when it is
   * fine.
   */
  public Optional<String> problem(String value) {
    if (value == null || value.isBlank()) {
      return required
          ? Optional.of(variable() + " is not set: " + rule.expected())
          : Optional.empty();
    }
    return rule.accepts(value.strip())
        ? Optional.empty()
        : Optional.of(variable() + " is malformed: " + rule.expected());
  }
}

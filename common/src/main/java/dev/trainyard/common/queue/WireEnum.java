package dev.trainyard.common.queue;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;
import java.util.Optional;

/** An enum whose wire form is its lower-case name; inputs are matched case-insensitively. */
public interface WireEnum {
  String name();

  @JsonValue
  default String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  static <E extends Enum<E> & WireEnum> Optional<E> parse(Class<E> type, String text) {
    if (text == null) {
      return Optional.empty();
    }
    for (E value : type.getEnumConstants()) {
      if (value.wire().equalsIgnoreCase(text)) {
        return Optional.of(value);
      }
    }
    return Optional.empty();
  }

  /** The accepted values, for error messages: {@code single|parallel}. */
  static <E extends Enum<E> & WireEnum> String choices(Class<E> type) {
    StringBuilder out = new StringBuilder();
    for (E value : type.getEnumConstants()) {
      out.append(out.length() == 0 ? "" : "|").append(value.wire());
    }
    return out.toString();
  }
}

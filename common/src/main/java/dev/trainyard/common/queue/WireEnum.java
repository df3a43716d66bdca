package dev.trainyard.common.queue;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;
import java.util.Optional;

/** An enum whose wire form is its lower-case name; inputs are matched case-insensitively. */
public interface WireEnum {
  String name();

  @JsonValue
  default String wire() {
    Enum<?> self = (Enum<?>) this;
    return Names.OF.get(self.getDeclaringClass())[self.ordinal()];
  }

  static <E extends Enum<E> & WireEnum> Optional<E> parse(Class<E> type, String text) {
    if (text == null) {
      return Optional.empty();
    }
    String[] names = Names.OF.get(type);
    for (int i = 0; i < names.length; i++) {
      if (names[i].equalsIgnoreCase(text)) {
        return Optional.of(type.getEnumConstants()[i]);
      }
    }
    return Optional.empty();
  }

  /** The accepted values, for error messages: {@code single|parallel}. */
  static <E extends Enum<E> & WireEnum> String choices(Class<E> type) {
    return String.join("|", Names.OF.get(type));
  }

  /**
   * Each wire enum's lower-case names by ordinal, computed once: every enum a response or a stored
   * document writes goes through {@link #wire()}, which lower-cased its name on every call.
   */
  final class Names {
    static final ClassValue<String[]> OF =
        new ClassValue<>() {
          @Override
          protected String[] computeValue(Class<?> type) {
            Object[] constants = type.getEnumConstants();
            String[] names = new String[constants.length];
            for (int i = 0; i < constants.length; i++) {
              names[i] = ((Enum<?>) constants[i]).name().toLowerCase(Locale.ROOT);
            }
            return names;
          }
        };

    private Names() {}
  }
}

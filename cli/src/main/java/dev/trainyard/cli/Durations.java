package dev.trainyard.cli;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** A duration as people write one: {@code 90s}, {@code 2m}, {@code 1h}, {@code 500ms}. */
final class Durations implements ITypeConverter<Duration> {
  private static final Pattern FORM = Pattern.compile("(\\d{1,9})(ms|s|m|h)");

  /** {@code duration} as it is written here: {@code 750 ms}, {@code 90 s}. */
  static String text(Duration duration) {
    return duration.toMillis() < 1000 ? duration.toMillis() + " ms" : duration.toSeconds() + " s";
  }

  @Override
  public Duration convert(String value) {
    Matcher form = FORM.matcher(value.strip());
    if (!form.matches()) {
      throw new TypeConversionException(
          "'" + value + "' is not a duration like 500ms, 90s, 2m or 1h");
    }
    long amount = Long.parseLong(form.group(1));
    return switch (form.group(2)) {
      case "ms" -> Duration.ofMillis(amount);
      case "s" -> Duration.ofSeconds(amount);
      case "m" -> Duration.ofMinutes(amount);
      default -> Duration.ofHours(amount);
    };
  }
}

package dev.trainyard.common.json;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/**
 * RFC 3339 UTC timestamps with exactly three fraction digits, as API.md requires. The fixed width
 * also makes the text sort like the instant, which the read model relies on for keyset paging.
 */
public final class Timestamps {
  private static final DateTimeFormatter FORMAT =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private static final String TEMPLATE = "0000-00-00T00:00:00.000Z";

  /** Where each field of {@link #TEMPLATE} ends: year, month, day, hour, minute, second, milli. */
  private static final int[] FIELD_ENDS = {4, 7, 10, 13, 16, 19, 23};

  /** 10000-01-01T00:00:00Z: from here on the year takes five digits and a sign. */
  private static final long YEAR_10000 = 253_402_300_800L;

  private Timestamps() {}

  /**
   * The instant in that form, the fraction cut (not rounded) to milliseconds. Every timestamp of
   * every document and body goes through here: the formatter's fraction printer builds a BigDecimal
   * each time, so the common range (1970 to 9999) is written digit by digit, and the formatter
   * keeps the rest.
   */
  public static String format(Instant instant) {
    if (instant == null) {
      return null;
    }
    long seconds = instant.getEpochSecond();
    if (seconds < 0 || seconds >= YEAR_10000) {
      return FORMAT.format(instant.truncatedTo(ChronoUnit.MILLIS));
    }
    LocalDateTime t = LocalDateTime.ofEpochSecond(seconds, 0, ZoneOffset.UTC);
    int[] fields = {
      t.getYear(),
      t.getMonthValue(),
      t.getDayOfMonth(),
      t.getHour(),
      t.getMinute(),
      t.getSecond(),
      instant.getNano() / 1_000_000
    };
    char[] text = TEMPLATE.toCharArray();
    for (int f = 0; f < fields.length; f++) {
      // each field fits its width, and the template holds its leading zeros
      for (int i = FIELD_ENDS[f] - 1, rest = fields[f]; rest > 0; i--, rest /= 10) {
        text[i] = (char) ('0' + rest % 10);
      }
    }
    return new String(text);
  }

  public static Instant parse(String text) {
    return text == null ? null : Instant.parse(text);
  }

  /** Parses any RFC 3339 timestamp (offsets allowed), empty when the text is not one. */
  public static Optional<Instant> tryParseRfc3339(String text) {
    try {
      return Optional.of(java.time.OffsetDateTime.parse(text).toInstant());
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }
}

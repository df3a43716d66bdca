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
    char[] text = new char[24];
    digits(text, 0, 4, t.getYear());
    text[4] = '-';
    digits(text, 5, 2, t.getMonthValue());
    text[7] = '-';
    digits(text, 8, 2, t.getDayOfMonth());
    text[10] = 'T';
    digits(text, 11, 2, t.getHour());
    text[13] = ':';
    digits(text, 14, 2, t.getMinute());
    text[16] = ':';
    digits(text, 17, 2, t.getSecond());
    text[19] = '.';
    digits(text, 20, 3, instant.getNano() / 1_000_000);
    text[23] = 'Z';
    return new String(text);
  }

  private static void digits(char[] text, int at, int width, int value) {
    int rest = value;
    for (int i = at + width - 1; i >= at; i--) {
      text[i] = (char) ('0' + rest % 10);
      rest /= 10;
    }
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

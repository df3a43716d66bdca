package dev.trainyard.common.json;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.YearMonth;
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

  /**
   * The instant {@code text} denotes. Text in this class's own form (every stored and written
   * timestamp) is read digit by digit — reads decode several per document, and {@code
   * Instant.parse} resolves each through the ISO formatter's field map; anything else (another
   * fraction, a leap second, a malformed text) goes to {@code Instant.parse}, which accepts or
   * refuses it as before.
   */
  public static Instant parse(String text) {
    if (text == null) {
      return null;
    }
    if (text.length() == TEMPLATE.length()) {
      int[] fields = new int[FIELD_ENDS.length];
      int start = 0;
      boolean canonical = true;
      for (int f = 0; f < FIELD_ENDS.length && canonical; f++) {
        for (int i = start; i < FIELD_ENDS[f]; i++) {
          char c = text.charAt(i);
          if (c < '0' || c > '9') {
            canonical = false;
            break;
          }
          fields[f] = fields[f] * 10 + (c - '0');
        }
        canonical &= text.charAt(FIELD_ENDS[f]) == TEMPLATE.charAt(FIELD_ENDS[f]);
        start = FIELD_ENDS[f] + 1;
      }
      if (canonical
          && fields[1] >= 1
          && fields[1] <= 12
          && fields[2] >= 1
          && fields[2] <= YearMonth.of(fields[0], fields[1]).lengthOfMonth()
          && fields[3] <= 23
          && fields[4] <= 59
          && fields[5] <= 59) {
        long days = LocalDate.of(fields[0], fields[1], fields[2]).toEpochDay();
        long seconds = days * 86_400 + fields[3] * 3_600L + fields[4] * 60L + fields[5];
        return Instant.ofEpochSecond(seconds, fields[6] * 1_000_000L);
      }
    }
    return Instant.parse(text);
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

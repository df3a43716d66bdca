package dev.trainyard.common.json;

import java.time.Instant;
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

  private Timestamps() {}

  public static String format(Instant instant) {
    return instant == null ? null : FORMAT.format(instant.truncatedTo(ChronoUnit.MILLIS));
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

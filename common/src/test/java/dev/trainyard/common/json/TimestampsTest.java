package dev.trainyard.common.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link Timestamps#format} writes what the API's pattern writes, for every instant; {@link
 * Timestamps#parse} reads every text as {@code Instant.parse} does.
 */
class TimestampsTest {
  private static final DateTimeFormatter PATTERN =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  static Stream<Instant> edges() {
    return Stream.of(
        Instant.EPOCH,
        Instant.EPOCH.minusNanos(1),
        Instant.parse("1999-12-31T23:59:59.999999999Z"),
        Instant.parse("2000-02-29T12:00:00.000500Z"),
        Instant.parse("2026-11-26T10:00:00.001Z"),
        Instant.parse("2026-11-26T10:00:00.0009Z"),
        Instant.parse("9999-12-31T23:59:59.999999999Z"),
        Instant.parse("9999-12-31T23:59:59.999999999Z").plusNanos(1),
        Instant.parse("0001-01-01T00:00:00Z"),
        Instant.parse("+12345-06-07T08:09:10.011Z"),
        Instant.parse("-0001-01-01T00:00:00Z"));
  }

  @ParameterizedTest
  @MethodSource("edges")
  void anEdgeIsWrittenAsThePatternWritesIt(Instant instant) {
    assertThat(Timestamps.format(instant))
        .isEqualTo(PATTERN.format(instant.truncatedTo(ChronoUnit.MILLIS)));
  }

  @Test
  void anyInstantIsWrittenAsThePatternWritesIt() {
    SplittableRandom random = new SplittableRandom(26);
    for (int i = 0; i < 200_000; i++) {
      Instant instant =
          Instant.ofEpochSecond(
              random.nextLong(-100_000_000_000L, 300_000_000_000L), random.nextInt(1_000_000_000));
      assertThat(Timestamps.format(instant))
          .as("%s", instant)
          .isEqualTo(PATTERN.format(instant.truncatedTo(ChronoUnit.MILLIS)));
    }
  }

  @Test
  void whatIsWrittenIsReadBackAsInstantParseReadsIt() {
    SplittableRandom random = new SplittableRandom(52);
    for (int i = 0; i < 200_000; i++) {
      String text =
          Timestamps.format(
              Instant.ofEpochSecond(
                  random.nextLong(-62_167_219_200L, 253_402_300_800L),
                  random.nextInt(1_000_000_000)));
      assertThat(Timestamps.parse(text)).as(text).isEqualTo(Instant.parse(text));
    }
    edges()
        .map(Timestamps::format)
        .forEach(t -> assertThat(Timestamps.parse(t)).isEqualTo(Instant.parse(t)));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "2026-11-26T10:00:00Z",
        "2026-11-26T10:00:00.1Z",
        "2026-11-26T10:00:00.123456Z",
        "2026-11-26T10:00:00+01:00",
        "2016-12-31T23:59:60.000Z",
        "2026-11-26T24:00:00.000Z"
      })
  void otherFormsAreReadAsInstantParseReadsThem(String text) {
    assertThat(Timestamps.parse(text)).isEqualTo(Instant.parse(text));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "2026-02-30T00:00:00.000Z",
        "2026-13-01T00:00:00.000Z",
        "2026-11-26T10:60:00.000Z",
        "2026-11-26 10:00:00.000Z",
        "2026-11-26T10:00:00.000X",
        "2026-1a-26T10:00:00.000Z",
        "not a time at all, really",
        ""
      })
  void whatInstantParseRefusesIsRefused(String text) {
    assertThatThrownBy(() -> Instant.parse(text)).isInstanceOf(DateTimeParseException.class);
    assertThatThrownBy(() -> Timestamps.parse(text)).isInstanceOf(DateTimeParseException.class);
  }

  @Test
  void nothingIsWrittenForNoInstant() {
    assertThat(Timestamps.format(null)).isNull();
  }
}

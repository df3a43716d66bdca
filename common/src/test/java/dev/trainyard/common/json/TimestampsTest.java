package dev.trainyard.common.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link Timestamps#format} writes what the API's pattern writes, for every instant. */
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
  void nothingIsWrittenForNoInstant() {
    assertThat(Timestamps.format(null)).isNull();
  }
}

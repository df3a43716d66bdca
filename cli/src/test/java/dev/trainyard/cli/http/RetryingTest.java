package dev.trainyard.cli.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class RetryingTest {
  record Row(
      String why,
      int attempt,
      Optional<Duration> retryAfter,
      Duration spent,
      Optional<Duration> pause) {
    @Override
    public String toString() {
      return why;
    }
  }

  static Stream<Row> rows() {
    Duration none = Duration.ZERO;
    return Stream.of(
        new Row("first backoff is 1 s", 1, Optional.empty(), none, Optional.of(secs(1))),
        new Row("it doubles", 3, Optional.empty(), none, Optional.of(secs(4))),
        new Row("it stops growing at 10 s", 9, Optional.empty(), none, Optional.of(secs(10))),
        new Row("a huge attempt count", 500, Optional.empty(), none, Optional.of(secs(10))),
        new Row("Retry-After wins", 1, Optional.of(secs(7)), none, Optional.of(secs(7))),
        new Row(
            "Retry-After 0 retries at once", 4, Optional.of(secs(0)), none, Optional.of(secs(0))),
        new Row("up to the budget", 1, Optional.of(secs(20)), secs(100), Optional.of(secs(20))),
        new Row("not past it", 1, Optional.of(secs(21)), secs(100), Optional.empty()),
        new Row("backoff past it", 5, Optional.empty(), secs(115), Optional.empty()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  void pausesWithinTheBudget(Row row) {
    assertThat(new Retrying(secs(120)).pause(row.attempt(), row.retryAfter(), row.spent()))
        .isEqualTo(row.pause());
  }

  @ParameterizedTest(name = "Retry-After ''{0}''")
  @CsvSource(
      value = {"5|5", " 12 |12", "0|1", "-1|", "1.5|", "Wed, 21 Oct 2015 07:28:00 GMT|", "''|"},
      delimiter = '|',
      ignoreLeadingAndTrailingWhitespace = false)
  void readsWholeSecondsOnly(String header, Long seconds) {
    assertThat(Retrying.retryAfter(header))
        .isEqualTo(Optional.ofNullable(seconds).map(Duration::ofSeconds));
  }

  @ParameterizedTest(name = "{0} keyed={2} -> {3}")
  @CsvSource({
    "408, '', false, true",
    "429, '', false, true",
    "502, '', false, true",
    "503, '', false, true",
    "504, '', false, true",
    "500, '', true, false",
    "400, '', true, false",
    "404, '', true, false",
    "409, a request with this Idempotency-Key is still being answered; retry, true, true",
    "409, a request with this Idempotency-Key is still being answered; retry, false, false",
    "409, the queue exists, true, false"
  })
  void onlyAnswersThatAreNotDefinitiveAreSentAgain(
      int status, String body, boolean keyed, boolean again) {
    assertThat(Retrying.again(status, body, keyed)).isEqualTo(again);
  }

  private static Duration secs(long seconds) {
    return Duration.ofSeconds(seconds);
  }
}

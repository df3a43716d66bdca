package dev.trainyard.common.limits;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class TokenBucketTest {
  private static final double RATE = 10;
  private static final double BURST = 20;

  /** A bucket holding {@code tokens} at t=0, asked for a slice at {@code nowMillis}. */
  record Row(
      String rule,
      double tokens,
      long nowMillis,
      int slice,
      int granted,
      double left,
      long retryAfter) {
    @Override
    public String toString() {
      return rule;
    }
  }

  static Stream<Row> rows() {
    return Stream.of(
        new Row("a full bucket grants a whole slice", 20, 0, 5, 5, 15, 0),
        new Row("a slice is cut to the whole tokens there are", 2.5, 0, 5, 2, 0.5, 0),
        new Row("tokens flow in at the rate", 0, 500, 5, 5, 0, 0),
        new Row("the bucket never fills past the burst", 20, 60_000, 50, 20, 0, 0),
        new Row(
            "less than a token grants nothing and says when one is there", 0.5, 0, 1, 0, 0.5, 1),
        new Row("a clock behind the bucket adds nothing", 0, -5_000, 1, 0, 0, 1));
  }

  @ParameterizedTest
  @MethodSource("rows")
  void takesAsTheRuleSays(Row row) {
    TokenBucket.Take take =
        new TokenBucket(row.tokens(), 0).take(row.nowMillis(), RATE, BURST, row.slice());

    assertThat(take.granted()).isEqualTo(row.granted());
    assertThat(take.after().tokens())
        .isCloseTo(row.left(), org.assertj.core.data.Offset.offset(1e-9));
    assertThat(take.retryAfterSeconds()).isEqualTo(row.retryAfter());
    assertThat(take.after().atMillis()).isEqualTo(Math.max(0, row.nowMillis()));
  }
}

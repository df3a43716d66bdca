package dev.trainyard.bench.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A run in a bench process of its own hands its figures back on one line, none lost or moved. */
class SummaryLineTest {

  @Test
  void everyFigureComesBackWhereItWas() {
    HttpBenchmark.Summary measured =
        new HttpBenchmark.Summary(
            801.5, 1131.25, 1.625, 64.0, 1165.31, 9.355, 3, 1.443, 7.5, 2.033, 0.125);

    HttpBenchmark.Summary read = HttpBenchmark.Summary.parse(measured.line());

    assertThat(read).isEqualTo(measured);
    assertThat(read.readsOverHealth()).isEqualTo(1131.25 / 801.5);
  }

  @Test
  void aLineWithAFigureMissingIsRefused() {
    String line = new HttpBenchmark.Summary(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11).line();
    String shortened = line.substring(0, line.lastIndexOf(' '));

    assertThatThrownBy(() -> HttpBenchmark.Summary.parse(shortened))
        .isInstanceOf(IllegalArgumentException.class);
  }
}

package dev.trainyard.bench.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Zuul's window with its defaults, and SubmitQueue's ranking as priorities. */
class ZuulWindowTest {
  /** m: a change merged, f: a change failed. */
  @ParameterizedTest(name = "{0} → {1}")
  @CsvSource({
    "'', 20",
    "m, 21",
    "mmm, 23",
    "f, 10",
    "ff, 5",
    "fff, 3",
    "ffff, 3",
    "fffm, 4",
    "mf, 10",
    "fmmmmmmmmmmm, 21"
  })
  void growsByOneAndHalvesToTheFloor(String events, int size) {
    ZuulWindow window = new ZuulWindow();
    for (char e : events.toCharArray()) {
      if (e == 'm') {
        window.merged();
      } else {
        window.failed();
      }
    }
    assertThat(window.size()).isEqualTo(size);
  }

  @ParameterizedTest(name = "predicted {0} → priority {1}")
  @CsvSource({"0, 1", "0.05, 14", "0.5, 128", "1, 255", "-0.1, 1", "1.5, 255"})
  void submitQueueRanksByPredictedRiskAndNeverSkipsTheLine(double predicted, int priority) {
    assertThat(Rival.rank(predicted)).isEqualTo(priority);
  }
}

package dev.trainyard.gateway.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.queue.QueueKey;
import java.time.Duration;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** How the dashboard reads queue ids back and summarises times in queue. */
class DashboardReaderTest {

  @ParameterizedTest(name = "{0}:{1}:{2}:{3}:{4}")
  @CsvSource(
      delimiter = '|',
      value = {
        "acme | github.com | acme | app | main",
        "acme | git.example:8443 | team | app.server | release/1.x",
        "acme-org | h | o | n | feature/a:b",
      })
  void readsBackTheIdItWrote(String org, String host, String owner, String name, String branch) {
    QueueKey key = QueueKey.of(org, host, owner, name, branch);

    assertThat(DashboardReader.parseKey(key.id())).isEqualTo(key);
  }

  @ParameterizedTest(name = "p{1} of {0} samples is {2} s")
  @CsvSource({
    "0, 50, -1",
    "1, 50, 1",
    "1, 95, 1",
    "2, 50, 1",
    "10, 50, 5",
    "10, 95, 10",
    "100, 95, 95",
    "100, 50, 50",
  })
  void percentileIsTheNearestRank(int samples, int p, long expectedSeconds) {
    List<Duration> sorted =
        LongStream.rangeClosed(1, samples).mapToObj(Duration::ofSeconds).toList();

    Duration answer = DashboardReader.percentile(sorted, p);

    assertThat(answer == null ? -1 : answer.toSeconds()).isEqualTo(expectedSeconds);
  }

  @ParameterizedTest(name = "{0} s -> {1}")
  @CsvSource({
    "0, 0 s",
    "59, 59 s",
    "60, 1 min 0 s",
    "185, 3 min 5 s",
    "3599, 59 min 59 s",
    "3600, 1 h 0 min",
    "7830, 2 h 10 min",
    "-5, 0 s",
  })
  void durationsReadLikeAPersonWouldSayThem(long seconds, String expected) {
    assertThat(Links.duration(Duration.ofSeconds(seconds))).isEqualTo(expected);
  }
}

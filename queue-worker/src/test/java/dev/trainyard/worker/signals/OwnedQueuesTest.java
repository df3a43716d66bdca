package dev.trainyard.worker.signals;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The sweeps take the partitions as held only while the consumers' heartbeats are recent. */
class OwnedQueuesTest {

  static Stream<Arguments> heartbeats() {
    return Stream.of(
        Arguments.of("every consumer heartbeat 1 s ago", 1.0, 2.5, true),
        Arguments.of("one consumer cut off for 20 s", 1.0, 20.0, false),
        Arguments.of("just inside the bound", 7.0, 0.0, true),
        Arguments.of("a consumer that has not sent one yet (Kafka reports -1)", -1.0, 1.0, true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("heartbeats")
  void heldOnlyWhileEveryHeartbeatIsRecent(String what, double first, double second, boolean held) {
    Map<String, Map<MetricName, ? extends Metric>> metrics =
        Map.of("consumer-1", heartbeat(first), "consumer-2", heartbeat(second));

    assertThat(OwnedQueues.recentlyConfirmed(metrics)).isEqualTo(held);
  }

  private static Map<MetricName, Metric> heartbeat(double secondsAgo) {
    MetricName name =
        new MetricName("last-heartbeat-seconds-ago", "consumer-coordinator-metrics", "", Map.of());
    return Map.of(
        name,
        new Metric() {
          @Override
          public MetricName metricName() {
            return name;
          }

          @Override
          public Object metricValue() {
            return secondsAgo;
          }
        });
  }
}

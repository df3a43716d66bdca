package dev.trainyard.worker.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Which applied command ids a queue remembers: by time, with a floor and a ceiling by count. */
class RecentCommandsTest {
  private static final Instant NOW = Instant.parse("2026-11-25T12:00:00Z");

  static Stream<Arguments> cases() {
    Duration young = Duration.ofHours(23);
    Duration old = Duration.ofHours(25);
    return Stream.of(
        Arguments.of("all young ids are kept", 500, young, 501),
        Arguments.of("young ids up to the ceiling", 2_000, young, StoredQueue.RECENT_MAX),
        Arguments.of("old ids down to the floor", 500, old, StoredQueue.RECENT_FLOOR),
        Arguments.of("few old ids: all kept", 10, old, 11),
        Arguments.of("ids without a time count as young", 300, null, 301));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void remembered(String what, int before, Duration age, int expected) {
    List<RecentCommand> recent = new ArrayList<>();
    IntStream.range(0, before)
        .forEach(i -> recent.add(new RecentCommand("c" + i, age == null ? null : NOW.minus(age))));
    StoredQueue queue =
        new StoredQueue("q", "o", 7, null, null, null, recent, null, null, 0, false, null);

    List<RecentCommand> kept = queue.rememberAfter(List.of(new RecentCommand("new", NOW)), NOW);

    assertThat(kept).hasSize(expected);
    assertThat(kept.get(0).commandId()).isEqualTo("new");
    assertThat(kept.subList(1, kept.size()))
        .as("the newest of the earlier ids, in order")
        .isEqualTo(recent.subList(0, expected - 1));
  }
}

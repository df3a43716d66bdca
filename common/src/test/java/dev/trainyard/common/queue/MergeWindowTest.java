package dev.trainyard.common.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class MergeWindowTest {
  private static final List<String> WEEKDAYS = List.of("mon", "tue", "wed", "thu", "fri");
  private static final MergeWindow NEW_YORK_OFFICE =
      MergeWindow.of(0, WEEKDAYS, "09:00", "17:00", "America/New_York");
  private static final MergeWindow FRIDAY_NIGHT =
      MergeWindow.of(0, List.of("fri"), "22:00", "02:00", "UTC");
  private static final MergeWindow SKIPPED_START =
      MergeWindow.of(0, List.of("sun"), "02:30", "04:00", "America/New_York");
  private static final MergeWindow ENDS_IN_REPEATED_HOUR =
      MergeWindow.of(0, List.of("sun"), "00:00", "01:30", "America/New_York");

  static Stream<Arguments> instants() {
    return Stream.of(
        Arguments.of(
            "winter: 08:30 EST is before the office opens",
            NEW_YORK_OFFICE,
            "2026-03-06T13:30:00Z",
            false),
        Arguments.of("winter: 09:30 EST is open", NEW_YORK_OFFICE, "2026-03-06T14:30:00Z", true),
        Arguments.of(
            "summer: 09:30 EDT is open an hour earlier in UTC",
            NEW_YORK_OFFICE,
            "2026-03-09T13:30:00Z",
            true),
        Arguments.of(
            "17:00 is the end, not inside", NEW_YORK_OFFICE, "2026-03-09T21:00:00Z", false),
        Arguments.of("a Saturday is not a weekday", NEW_YORK_OFFICE, "2026-11-28T15:00:00Z", false),
        Arguments.of("spans midnight: Friday 23:00", FRIDAY_NIGHT, "2026-11-27T23:00:00Z", true),
        Arguments.of(
            "spans midnight: Saturday 01:00 belongs to Friday",
            FRIDAY_NIGHT,
            "2026-11-28T01:00:00Z",
            true),
        Arguments.of(
            "spans midnight: Saturday 02:00 is the end",
            FRIDAY_NIGHT,
            "2026-11-28T02:00:00Z",
            false),
        Arguments.of(
            "spans midnight: Saturday 22:30 is not listed",
            FRIDAY_NIGHT,
            "2026-11-28T22:30:00Z",
            false),
        Arguments.of(
            "spans midnight: Friday 01:00 belongs to Thursday",
            FRIDAY_NIGHT,
            "2026-11-27T01:00:00Z",
            false),
        Arguments.of(
            "a start the clock skips opens when it jumps (03:40 EDT)",
            SKIPPED_START,
            "2026-03-08T07:40:00Z",
            true),
        Arguments.of(
            "a start the clock skips opens when it jumps (03:10 EDT)",
            SKIPPED_START,
            "2026-03-08T07:10:00Z",
            true),
        Arguments.of(
            "an end in the repeated hour: 01:15 EDT, its first time, is open",
            ENDS_IN_REPEATED_HOUR,
            "2026-11-01T05:15:00Z",
            true),
        Arguments.of(
            "an end in the repeated hour: 01:15 EST, its second time, stays closed",
            ENDS_IN_REPEATED_HOUR,
            "2026-11-01T06:15:00Z",
            false));
  }

  /**
   * Open and closed agree with the next change, minute by minute through both of New York's
   * daylight-saving days: the state flips exactly where {@code nextChange} said it would, for
   * windows that start or end in a skipped or a repeated hour.
   */
  @ParameterizedTest
  @MethodSource("daylightSavingWindows")
  void isOpenChangesExactlyAtTheNextChange(MergeWindow window, String from) {
    Instant at = Instant.parse(from);
    Instant end = at.plus(java.time.Duration.ofHours(30));
    boolean open = window.isOpen(at);
    Instant change = window.nextChange(at).orElseThrow();
    while (at.isBefore(end)) {
      at = at.plusSeconds(60);
      boolean now = window.isOpen(at);
      if (at.isBefore(change)) {
        assertThat(now).as("%s at %s, before the change at %s", window, at, change).isEqualTo(open);
      } else {
        assertThat(at).as("%s flips at its next change", window).isEqualTo(change);
        assertThat(now).as("%s at its change %s", window, at).isNotEqualTo(open);
        open = now;
        change = window.nextChange(at).orElseThrow();
      }
    }
  }

  static Stream<Arguments> daylightSavingWindows() {
    List<String> all = List.of("mon", "tue", "wed", "thu", "fri", "sat", "sun");
    return Stream.of("2026-03-07T18:00:00Z", "2026-10-31T18:00:00Z")
        .flatMap(
            from ->
                Stream.of(
                        MergeWindow.of(0, all, "02:30", "04:00", "America/New_York"),
                        MergeWindow.of(0, all, "00:00", "01:30", "America/New_York"),
                        MergeWindow.of(0, all, "01:30", "02:30", "America/New_York"),
                        MergeWindow.of(0, all, "22:00", "02:15", "America/New_York"),
                        MergeWindow.of(0, all, "09:00", "24:00", "America/New_York"))
                    .map(w -> Arguments.of(w, from)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("instants")
  void isOpen(String name, MergeWindow window, String at, boolean open) {
    assertThat(window.isOpen(Instant.parse(at))).isEqualTo(open);
  }

  @Test
  void theNextOpeningFollowsTheZonesClockAcrossDaylightSaving() {
    // Friday 17:00 EST → Monday 09:00 EDT (13:00Z, not 14:00Z)
    assertThat(NEW_YORK_OFFICE.nextOpening(Instant.parse("2026-03-06T22:00:00Z")))
        .contains(Instant.parse("2026-03-09T13:00:00Z"));
    // 02:30 does not exist on 2026-03-08 in New York: the window opens when the clock jumps
    // from 02:00 EST to 03:00 EDT
    assertThat(SKIPPED_START.nextOpening(Instant.parse("2026-03-08T05:00:00Z")))
        .contains(Instant.parse("2026-03-08T07:00:00Z"));
  }

  @Test
  void theNextChangeIsAStartOrAnEnd() {
    assertThat(FRIDAY_NIGHT.nextChange(Instant.parse("2026-11-27T23:00:00Z")))
        .contains(Instant.parse("2026-11-28T02:00:00Z"));
    assertThat(FRIDAY_NIGHT.nextChange(Instant.parse("2026-11-28T02:00:00Z")))
        .contains(Instant.parse("2026-12-04T22:00:00Z"));
    assertThat(MergeWindow.anyOpen(List.of(), Instant.EPOCH)).isTrue();
    assertThat(MergeWindow.nextChange(List.of(), Instant.EPOCH)).isEmpty();
  }

  static Stream<Arguments> invalid() {
    return Stream.of(
        Arguments.of(
            List.of("monday"),
            "09:00",
            "17:00",
            "UTC",
            "mergeWindows[0].days: 'monday' is not one of"),
        Arguments.of(
            List.of(), "09:00", "17:00", "UTC", "mergeWindows[0].days must name at least one day"),
        Arguments.of(
            WEEKDAYS, "9:00", "17:00", "UTC", "mergeWindows[0].start must be a time HH:MM"),
        Arguments.of(
            WEEKDAYS, "24:00", "17:00", "UTC", "mergeWindows[0].start must be a time HH:MM"),
        Arguments.of(WEEKDAYS, "09:00", "17:60", "UTC", "mergeWindows[0].end must be a time HH:MM"),
        Arguments.of(
            WEEKDAYS, "09:00", "09:00", "UTC", "mergeWindows[0].end must differ from start"),
        Arguments.of(
            WEEKDAYS,
            "09:00",
            "17:00",
            "Mars/Olympus",
            "mergeWindows[0].timeZone 'Mars/Olympus' is not"),
        Arguments.of(WEEKDAYS, "09:00", "17:00", "", "mergeWindows[0].timeZone is required"));
  }

  @ParameterizedTest
  @MethodSource("invalid")
  void aBadWindowNamesItsField(
      List<String> days, String start, String end, String zone, String message) {
    assertThatThrownBy(() -> MergeWindow.of(0, days, start, end, zone))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(message);
  }

  @Test
  void dayNamesAreTakenWithoutCaseAndAnEndOf2400IsTheDaysEnd() {
    MergeWindow late = MergeWindow.of(0, List.of("SAT"), "20:00", "24:00", "UTC");
    assertThat(late.days()).containsExactly("sat");
    assertThat(late.isOpen(Instant.parse("2026-11-28T23:59:00Z"))).isTrue();
    assertThat(late.nextChange(Instant.parse("2026-11-28T21:00:00Z")))
        .contains(Instant.parse("2026-11-29T00:00:00Z"));
  }
}

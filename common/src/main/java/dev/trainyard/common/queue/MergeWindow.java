package dev.trainyard.common.queue;

import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A time a queue may land PRs (API.md §3 {@code mergeWindows}): on {@code days} (three-letter
 * names, {@code mon}..{@code sun}) from {@code start} to {@code end} ({@code HH:MM}) in {@code
 * timeZone} (an IANA name). An {@code end} before {@code start} spans midnight: the window opens on
 * a listed day and closes the next morning; {@code end} {@code 24:00} is the day's end. The clock
 * times are wall-clock times of the zone, so a window keeps its hours across daylight-saving
 * changes; a start that a spring-forward skips opens when the clock jumps, and a time a fall-back
 * repeats counts once, at its first occurrence. Pure data: the engine asks it with its own clock.
 */
public record MergeWindow(List<String> days, String start, String end, String timeZone) {
  private static final Pattern CLOCK = Pattern.compile("([01][0-9]|2[0-3]):[0-5][0-9]|24:00");
  private static final List<String> DAY_NAMES =
      List.of("mon", "tue", "wed", "thu", "fri", "sat", "sun");

  public MergeWindow {
    days = List.copyOf(days);
  }

  /**
   * A window from its wire parts, each checked; the exception names the offending field of {@code
   * mergeWindows[index]}.
   *
   * @throws IllegalArgumentException for an unknown day or zone, a malformed time, or no length
   */
  public static MergeWindow of(
      int index, List<String> days, String start, String end, String timeZone) {
    String field = "mergeWindows[" + index + "]";
    if (days == null || days.isEmpty()) {
      throw new IllegalArgumentException(field + ".days must name at least one day (mon..sun)");
    }
    List<String> names = days.stream().map(d -> d.toLowerCase(Locale.ROOT)).distinct().toList();
    for (String day : names) {
      if (!DAY_NAMES.contains(day)) {
        throw new IllegalArgumentException(
            field + ".days: '" + day + "' is not one of mon, tue, wed, thu, fri, sat, sun");
      }
    }
    clock(field + ".start", start, false);
    clock(field + ".end", end, true);
    if (start.equals(end)) {
      throw new IllegalArgumentException(
          field + ".end must differ from start (an end before start spans midnight)");
    }
    if (timeZone == null || timeZone.isEmpty()) {
      throw new IllegalArgumentException(field + ".timeZone is required (an IANA name)");
    }
    try {
      ZoneId.of(timeZone);
    } catch (DateTimeException e) {
      throw new IllegalArgumentException(
          field + ".timeZone '" + timeZone + "' is not an IANA time zone (Europe/Berlin, UTC)");
    }
    return new MergeWindow(names, start, end, timeZone);
  }

  private static void clock(String field, String value, boolean mayBeDayEnd) {
    if (value == null
        || !CLOCK.matcher(value).matches()
        || (!mayBeDayEnd && value.equals("24:00"))) {
      throw new IllegalArgumentException(field + " must be a time HH:MM (00:00 to 23:59)");
    }
  }

  /** Whether landing may happen at {@code now} under {@code windows} (none: always). */
  public static boolean anyOpen(List<MergeWindow> windows, Instant now) {
    return windows.isEmpty() || windows.stream().anyMatch(w -> w.isOpen(now));
  }

  /** The first instant after {@code now} at which one of {@code windows} opens, if any does. */
  public static Optional<Instant> nextOpening(List<MergeWindow> windows, Instant now) {
    return windows.stream()
        .map(w -> w.nextOpening(now))
        .flatMap(Optional::stream)
        .min(Instant::compareTo);
  }

  /** The first instant after {@code now} at which one of {@code windows} opens or closes. */
  public static Optional<Instant> nextChange(List<MergeWindow> windows, Instant now) {
    return windows.stream()
        .map(w -> w.nextChange(now))
        .flatMap(Optional::stream)
        .min(Instant::compareTo);
  }

  /**
   * Whether {@code now} falls in one of this window's openings. Openings are instants ({@link
   * #openings}), so this and {@link #nextChange} always agree, daylight saving or not.
   */
  public boolean isOpen(Instant now) {
    return openings(now).stream().anyMatch(o -> !now.isBefore(o[0]) && now.isBefore(o[1]));
  }

  /** The next start of this window strictly after {@code now} (within the coming eight days). */
  public Optional<Instant> nextOpening(Instant now) {
    return openings(now).stream().map(o -> o[0]).filter(at -> at.isAfter(now)).findFirst();
  }

  /** The next start or end of this window strictly after {@code now}. */
  public Optional<Instant> nextChange(Instant now) {
    return openings(now).stream()
        .flatMap(o -> java.util.stream.Stream.of(o[0], o[1]))
        .filter(at -> at.isAfter(now))
        .min(Instant::compareTo);
  }

  /**
   * The openings {@code [opens, closes)} of the listed days from the day before {@code now}'s to
   * eight days after, in order. A wall-clock time a spring-forward skips is the instant the clock
   * jumps; one a fall-back repeats is its first occurrence (a window closing at 01:30 closes the
   * first time the clock reads 01:30 and does not open again for the repeated hour).
   */
  private List<Instant[]> openings(Instant now) {
    ZoneId zone = ZoneId.of(timeZone);
    LocalDate today = now.atZone(zone).toLocalDate();
    List<Instant[]> openings = new java.util.ArrayList<>();
    for (int k = -1; k <= 8; k++) {
      LocalDate day = today.plusDays(k);
      if (!on(day.getDayOfWeek())) {
        continue;
      }
      LocalDate endDay = spansMidnight() || end.equals("24:00") ? day.plusDays(1) : day;
      LocalTime endTime = end.equals("24:00") ? LocalTime.MIDNIGHT : LocalTime.parse(end);
      openings.add(
          new Instant[] {
            instant(day.atTime(LocalTime.parse(start)), zone), instant(endDay.atTime(endTime), zone)
          });
    }
    return openings;
  }

  private static Instant instant(java.time.LocalDateTime wall, ZoneId zone) {
    java.time.zone.ZoneRules rules = zone.getRules();
    if (rules.getValidOffsets(wall).isEmpty()) {
      return rules.getTransition(wall).getInstant(); // skipped: the clock jumps over it
    }
    return ZonedDateTime.of(wall, zone).withEarlierOffsetAtOverlap().toInstant();
  }

  private boolean spansMidnight() {
    return !end.equals("24:00") && LocalTime.parse(end).isBefore(LocalTime.parse(start));
  }

  private boolean on(DayOfWeek day) {
    return days.contains(DAY_NAMES.get(day.getValue() - 1));
  }
}

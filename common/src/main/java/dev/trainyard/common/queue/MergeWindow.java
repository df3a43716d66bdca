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
 * changes; a start that a spring-forward skips opens when the clock jumps. Pure data: the engine
 * asks it with its own clock.
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

  public boolean isOpen(Instant now) {
    ZonedDateTime local = now.atZone(ZoneId.of(timeZone));
    LocalTime t = local.toLocalTime();
    LocalTime from = LocalTime.parse(start);
    if (spansMidnight()) {
      return (on(local.getDayOfWeek()) && !t.isBefore(from))
          || (on(local.getDayOfWeek().minus(1)) && t.isBefore(LocalTime.parse(end)));
    }
    return on(local.getDayOfWeek())
        && !t.isBefore(from)
        && (end.equals("24:00") || t.isBefore(LocalTime.parse(end)));
  }

  /** The next start of this window strictly after {@code now} (within the coming eight days). */
  public Optional<Instant> nextOpening(Instant now) {
    ZoneId zone = ZoneId.of(timeZone);
    LocalDate today = now.atZone(zone).toLocalDate();
    for (int k = 0; k <= 8; k++) {
      LocalDate day = today.plusDays(k);
      if (on(day.getDayOfWeek())) {
        Instant opens = ZonedDateTime.of(day, LocalTime.parse(start), zone).toInstant();
        if (opens.isAfter(now)) {
          return Optional.of(opens);
        }
      }
    }
    return Optional.empty();
  }

  /** The next start or end of this window strictly after {@code now}. */
  public Optional<Instant> nextChange(Instant now) {
    ZoneId zone = ZoneId.of(timeZone);
    LocalDate today = now.atZone(zone).toLocalDate();
    Instant best = null;
    for (int k = -1; k <= 8; k++) {
      LocalDate day = today.plusDays(k);
      if (!on(day.getDayOfWeek())) {
        continue;
      }
      LocalDate endDay = spansMidnight() || end.equals("24:00") ? day.plusDays(1) : day;
      LocalTime endTime = end.equals("24:00") ? LocalTime.MIDNIGHT : LocalTime.parse(end);
      for (Instant at :
          List.of(
              ZonedDateTime.of(day, LocalTime.parse(start), zone).toInstant(),
              ZonedDateTime.of(endDay, endTime, zone).toInstant())) {
        if (at.isAfter(now) && (best == null || at.isBefore(best))) {
          best = at;
        }
      }
    }
    return Optional.ofNullable(best);
  }

  private boolean spansMidnight() {
    return !end.equals("24:00") && LocalTime.parse(end).isBefore(LocalTime.parse(start));
  }

  private boolean on(DayOfWeek day) {
    return days.contains(DAY_NAMES.get(day.getValue() - 1));
  }
}

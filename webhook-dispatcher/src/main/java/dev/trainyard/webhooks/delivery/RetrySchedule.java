package dev.trainyard.webhooks.delivery;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The delays between attempts of one delivery ({@code TRAINYARD_WEBHOOK_RETRY_SCHEDULE}): after the
 * n-th failed attempt the next one is due after the n-th delay; after the last, the delivery has
 * failed. {@code 5s,5m,30m,2h,5h,10h,10h} is eight attempts over about 28 hours.
 */
public record RetrySchedule(List<Duration> delays) {
  private static final Pattern DELAY = Pattern.compile("(\\d+)(ms|s|m|h|d)");

  public RetrySchedule {
    delays = List.copyOf(delays);
  }

  public static RetrySchedule parse(String text) {
    List<Duration> delays = new ArrayList<>();
    for (String part : text.split(",")) {
      Matcher m = DELAY.matcher(part.trim());
      if (!m.matches()) {
        throw new IllegalArgumentException(
            "retry schedule entries look like 500ms, 5s, 5m, 2h or 1d; got '" + part.trim() + "'");
      }
      long n = Long.parseLong(m.group(1));
      delays.add(
          switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
          });
    }
    return new RetrySchedule(delays);
  }

  /** The delay before the next attempt after {@code failedAttempts} failures; empty: give up. */
  public Optional<Duration> after(int failedAttempts) {
    return failedAttempts >= 1 && failedAttempts <= delays.size()
        ? Optional.of(delays.get(failedAttempts - 1))
        : Optional.empty();
  }
}

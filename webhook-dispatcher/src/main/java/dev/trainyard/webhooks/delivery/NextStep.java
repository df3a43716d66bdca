package dev.trainyard.webhooks.delivery;

import dev.trainyard.common.webhook.WebhookDelivery;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * What follows one attempt, decided without I/O: delivered on a 2xx; failed and the endpoint
 * disabled on {@code 410 Gone} or when it has failed without a success for {@code disableAfter};
 * failed when the schedule is exhausted; otherwise due again after {@code Retry-After} (429, 503)
 * or the schedule's next delay.
 *
 * @param status the delivery's status after the attempt
 * @param nextAttemptAt when it is due again (null unless pending)
 * @param disableEndpoint why the endpoint is disabled now (null: it stays enabled)
 */
public record NextStep(String status, Instant nextAttemptAt, String disableEndpoint) {

  /** One attempt's result and the delivery's history. */
  public record Attempted(
      int statusCode,
      String error,
      Optional<Duration> retryAfter,
      Instant failingSince,
      int attemptsBefore,
      Instant now) {}

  public static NextStep after(Attempted a, RetrySchedule schedule, Duration disableAfter) {
    if (a.error() == null && a.statusCode() / 100 == 2) {
      return new NextStep(WebhookDelivery.DELIVERED, null, null);
    }
    if (a.statusCode() == 410) {
      return new NextStep(WebhookDelivery.FAILED, null, "the endpoint answered 410 Gone");
    }
    Instant since = a.failingSince() == null ? a.now() : a.failingSince();
    if (!a.now().isBefore(since.plus(disableAfter))) {
      return new NextStep(WebhookDelivery.FAILED, null, "failing without a success since " + since);
    }
    Optional<Duration> next = schedule.after(a.attemptsBefore() + 1);
    if (next.isEmpty()) {
      return new NextStep(WebhookDelivery.FAILED, null, null);
    }
    return new NextStep(
        WebhookDelivery.PENDING, a.now().plus(a.retryAfter().orElse(next.get())), null);
  }
}

package dev.trainyard.webhooks.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.webhook.WebhookDelivery;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** One row per rule of what follows an attempt. */
class NextStepTest {
  private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");
  private static final RetrySchedule SCHEDULE = RetrySchedule.parse("5s,5m,30m,2h,5h,10h,10h");
  private static final Duration FIVE_DAYS = Duration.ofDays(5);

  record Row(String rule, NextStep.Attempted attempted, NextStep expected) {
    @Override
    public String toString() {
      return rule;
    }
  }

  static NextStep.Attempted attempt(int status, String error, Instant failingSince, int before) {
    return new NextStep.Attempted(status, error, Optional.empty(), failingSince, before, NOW);
  }

  static Stream<Row> rules() {
    return Stream.of(
        new Row(
            "a 2xx delivers",
            attempt(204, null, null, 3),
            new NextStep(WebhookDelivery.DELIVERED, null, null)),
        new Row(
            "the first failure is due again after the first delay",
            attempt(500, null, null, 0),
            new NextStep(WebhookDelivery.PENDING, NOW.plusSeconds(5), null)),
        new Row(
            "a timeout counts as a failure",
            attempt(0, "HttpTimeoutException", null, 1),
            new NextStep(WebhookDelivery.PENDING, NOW.plus(Duration.ofMinutes(5)), null)),
        new Row(
            "503 with Retry-After is due after it",
            new NextStep.Attempted(503, null, Optional.of(Duration.ofSeconds(42)), null, 0, NOW),
            new NextStep(WebhookDelivery.PENDING, NOW.plusSeconds(42), null)),
        new Row(
            "the eighth failure exhausts the schedule",
            attempt(500, null, NOW.minus(Duration.ofHours(28)), 7),
            new NextStep(WebhookDelivery.FAILED, null, null)),
        new Row(
            "410 Gone fails the delivery and disables the endpoint",
            attempt(410, null, null, 0),
            new NextStep(WebhookDelivery.FAILED, null, "the endpoint answered 410 Gone")),
        new Row(
            "five days of failures disable the endpoint",
            attempt(500, null, NOW.minus(FIVE_DAYS), 2),
            new NextStep(
                WebhookDelivery.FAILED,
                null,
                "failing without a success since " + NOW.minus(FIVE_DAYS))),
        new Row(
            "just under five days it keeps retrying",
            attempt(500, null, NOW.minus(FIVE_DAYS).plusSeconds(1), 2),
            new NextStep(WebhookDelivery.PENDING, NOW.plus(Duration.ofMinutes(30)), null)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rules")
  void rule(Row row) {
    assertThat(NextStep.after(row.attempted(), SCHEDULE, FIVE_DAYS)).isEqualTo(row.expected());
  }
}

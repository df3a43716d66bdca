package dev.trainyard.webhooks.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RetryScheduleTest {
  @Test
  void theDefaultScheduleIsEightAttemptsOverAboutADay() {
    RetrySchedule schedule = RetrySchedule.parse("5s,5m,30m,2h,5h,10h,10h");

    assertThat(schedule.after(1)).contains(Duration.ofSeconds(5));
    assertThat(schedule.after(2)).contains(Duration.ofMinutes(5));
    assertThat(schedule.after(7)).contains(Duration.ofHours(10));
    assertThat(schedule.after(8)).as("the eighth attempt was the last").isEmpty();
    assertThat(schedule.delays().stream().reduce(Duration.ZERO, Duration::plus))
        .isEqualTo(Duration.parse("PT27H35M5S"));
  }

  @Test
  void testsCompressItAndNonsenseIsRefused() {
    assertThat(RetrySchedule.parse(" 200ms, 1s ,1d").delays())
        .containsExactly(Duration.ofMillis(200), Duration.ofSeconds(1), Duration.ofDays(1));
    assertThatThrownBy(() -> RetrySchedule.parse("5s,soon")).hasMessageContaining("got 'soon'");
  }
}

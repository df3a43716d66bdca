package dev.trainyard.gateway.scm.github;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Replies to comment commands are bounded per PR, per commenter and per installation. */
class ReplyBudgetTest {
  private final AtomicReference<Instant> now =
      new AtomicReference<>(Instant.parse("2026-11-29T12:00:00Z"));
  private final ReplyBudget budget = new ReplyBudget(now::get);

  @Test
  void aPullRequestGetsAtMostFiveRepliesAnHourWhoeverComments() {
    for (int i = 0; i < ReplyBudget.PER_PULL_REQUEST; i++) {
      assertThat(budget.take(1, "acme/rocket", 7, "user-" + i)).isTrue();
    }
    assertThat(budget.take(1, "acme/rocket", 7, "someone-else")).isFalse();
    assertThat(budget.take(1, "ACME/rocket", 8, "someone-else")).as("another PR").isTrue();

    now.set(now.get().plus(ReplyBudget.WINDOW));
    assertThat(budget.take(1, "acme/rocket", 7, "someone-else")).as("an hour later").isTrue();
  }

  @Test
  void aCommenterGetsAtMostTenRepliesAnHourOverAllPullRequests() {
    for (int i = 0; i < ReplyBudget.PER_COMMENTER; i++) {
      assertThat(budget.take(1, "acme/rocket", i, "Mallory")).isTrue();
    }
    assertThat(budget.take(1, "acme/other", 99, "mallory")).isFalse();
  }

  @Test
  void anInstallationGetsAtMostTwentyRepliesAMinute() {
    for (int i = 0; i < ReplyBudget.PER_INSTALLATION; i++) {
      assertThat(budget.take(1, "acme/rocket", i, "user-" + i)).isTrue();
    }
    assertThat(budget.take(1, "acme/rocket", 100, "user-x")).isFalse();
    assertThat(budget.take(2, "other/repo", 1, "user-x")).as("another installation").isTrue();
    now.set(now.get().plus(Duration.ofMinutes(1)));
    assertThat(budget.take(1, "acme/rocket", 100, "user-x")).isTrue();
  }
}

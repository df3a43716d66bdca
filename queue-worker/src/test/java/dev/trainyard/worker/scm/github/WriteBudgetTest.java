package dev.trainyard.worker.scm.github;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trainyard.worker.scm.github.WriteBudget.Lane;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** GitHub writes per installation: landing first, then testing, then showing. */
class WriteBudgetTest {
  private final AtomicReference<Instant> now =
      new AtomicReference<>(Instant.parse("2026-11-26T12:00:00Z"));
  private final InstantSource clock = () -> now.get();

  @ParameterizedTest
  @CsvSource({
    "PUT, /repos/o/r/pulls/12/merge, LANDING",
    "PATCH, /repos/o/r/git/refs/heads/main, LANDING",
    "PATCH, /repos/o/r/git/refs/heads/release/2.0, LANDING",
    "PATCH, /repos/o/r/git/refs/heads/trainyard-merge/main/r1, TESTING",
    "PATCH, /repos/o/r/git/refs/heads/trainyard-scratch/main/r1, TESTING",
    "POST, /repos/o/r/git/refs, TESTING",
    "POST, /repos/o/r/merges, TESTING",
    "DELETE, /repos/o/r/git/refs/heads/trainyard-merge/main/r1, TESTING",
    "POST, /repos/o/r/check-runs, SHOWING",
    "PATCH, /repos/o/r/check-runs/7, SHOWING",
    "POST, /repos/o/r/issues/12/labels, SHOWING",
    "POST, /repos/o/r/issues/12/comments, SHOWING",
    "POST, /repos/o/r/pulls, SHOWING"
  })
  void eachWriteHasItsLane(String method, String path, Lane lane) {
    assertThat(WriteBudget.lane(method, path)).isEqualTo(lane);
  }

  @Test
  void showingLeavesAQuarterToTestingAndLandingAlwaysGoes() {
    WriteBudget budget = new WriteBudget(8, 1_000, clock);
    int shown = 0;
    while (taken(budget, Lane.SHOWING)) {
      shown++;
    }
    int tested = 0;
    while (taken(budget, Lane.TESTING)) {
      tested++;
    }

    assertThat(shown).as("8 a minute, a quarter kept back").isEqualTo(6);
    assertThat(tested).isEqualTo(2);
    assertThat(taken(budget, Lane.LANDING)).as("a landing is never held").isTrue();
    assertThat(taken(budget, 2, Lane.TESTING)).as("another installation's budget").isTrue();
    assertThatThrownBy(() -> budget.take(1, Lane.TESTING))
        .isInstanceOfSatisfying(
            WriteBudget.Spent.class,
            spent -> assertThat(spent.retry()).isEqualTo(Duration.ofSeconds(15)));

    now.set(now.get().plusSeconds(15));
    assertThat(taken(budget, Lane.TESTING)).as("refilled: 8 a minute").isTrue();
  }

  @Test
  void askingWhetherAWriteWouldGoTakesNothing() {
    WriteBudget budget = new WriteBudget(4, 1_000, clock);
    for (int i = 0; i < 10; i++) {
      budget.check(1, Lane.TESTING);
    }
    assertThat(taken(budget, Lane.TESTING)).isTrue();
    assertThat(taken(budget, Lane.TESTING)).isTrue();
    assertThat(taken(budget, Lane.TESTING)).isTrue();
    assertThat(taken(budget, Lane.TESTING)).isTrue();
    assertThatThrownBy(() -> budget.check(1, Lane.TESTING)).isInstanceOf(WriteBudget.Spent.class);
  }

  @Test
  void theHourlyBudgetHoldsWhenTheMinuteHasRoom() {
    WriteBudget budget = new WriteBudget(80, 4, clock);
    assertThat(taken(budget, Lane.TESTING)).isTrue();
    assertThat(taken(budget, Lane.TESTING)).isTrue();
    assertThat(taken(budget, Lane.TESTING)).isTrue();
    assertThat(taken(budget, Lane.TESTING)).isTrue();
    assertThat(taken(budget, Lane.TESTING)).isFalse();
  }

  private static boolean taken(WriteBudget budget, Lane lane) {
    return taken(budget, 1, lane);
  }

  private static boolean taken(WriteBudget budget, long installation, Lane lane) {
    try {
      budget.take(installation, lane);
      return true;
    } catch (WriteBudget.Spent e) {
      return false;
    }
  }
}

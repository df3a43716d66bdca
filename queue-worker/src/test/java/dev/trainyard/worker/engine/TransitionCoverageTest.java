package dev.trainyard.worker.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Temporal-style coverage: runs every rule row and a batch of simulations, then fails when a
 * transition declared in {@link PrTransitions}, {@link RunTransitions} or {@link QueueTransitions}
 * was never made (dead rule or missing test).
 */
class TransitionCoverageTest {

  @Test
  void everyDeclaredTransitionIsExercised() {
    RunRulesTest rows = new RunRulesTest();
    RunRulesTest.rules().forEach(rows::rule);
    QueueEngineTest table = new QueueEngineTest();
    QueueEngineTest.rules().forEach(table::rule);
    table.aPersonMovesTheQueueBetweenItsStates();
    for (long seed = 0; seed < 40; seed++) {
      new QueueSimulationTest.World(seed).run();
    }

    assertThat(TransitionLog.seen()).as("PRs").containsAll(PrTransitions.declared());
    assertThat(TransitionLog.seenRuns())
        .as("test runs")
        .containsAll(RunTransitions.TABLE.declared());
    assertThat(TransitionLog.seenQueueStates())
        .as("queues")
        .containsAll(QueueTransitions.TABLE.declared());
  }
}

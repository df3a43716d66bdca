package dev.trainyard.gateway.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.json.Json;
import dev.trainyard.common.queue.MergeWindow;
import dev.trainyard.common.queue.QueueFreeze;
import dev.trainyard.common.queue.QueueMode;
import dev.trainyard.common.queue.QueueSettings;
import dev.trainyard.common.queue.QueueState;
import dev.trainyard.common.view.QueueView;
import dev.trainyard.common.view.TestRunDocument;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** What keeps a waiting PR back, as the queue page says it. */
class WaitsForTest {
  private static final Instant SATURDAY_NOON = Instant.parse("2026-11-28T12:00:00Z");
  private static final QueueSettings SETTINGS = QueueSettings.defaults(QueueMode.SINGLE, 1);

  private static QueueView queue(QueueSettings settings, QueueFreeze freeze) {
    return new QueueView(QueueState.RUNNING, "main", settings, freeze, List.of(), null);
  }

  private static QueueSettings withWindows(List<MergeWindow> windows) {
    ObjectNode json = Json.mapper().valueToTree(SETTINGS);
    json.set("mergeWindows", Json.mapper().valueToTree(windows));
    return Json.mapper().treeToValue(json, QueueSettings.class);
  }

  @Test
  void aFreezeIsNamedWithItsReasonAndEnd() {
    assertThat(
            WaitsFor.landingGate(
                queue(SETTINGS, new QueueFreeze("release 4.2", null)), SATURDAY_NOON))
        .hasValue("the freeze to end (release 4.2, until unfrozen)");
    assertThat(
            WaitsFor.landingGate(
                queue(SETTINGS, new QueueFreeze("weekend", Instant.parse("2026-11-30T06:00:00Z"))),
                SATURDAY_NOON))
        .hasValue("the freeze to end (weekend, until 2026-11-30 06:00:00 UTC)");
  }

  @Test
  void aClosedMergeWindowIsNamedWithWhenTheNextOpens() {
    MergeWindow weekdays =
        new MergeWindow(List.of("mon", "tue", "wed", "thu", "fri"), "09:00", "17:00", "UTC");
    MergeWindow saturday = new MergeWindow(List.of("sat"), "00:00", "24:00", "UTC");

    assertThat(WaitsFor.landingGate(queue(withWindows(List.of(weekdays)), null), SATURDAY_NOON))
        .hasValue("the next merge window (opens 2026-11-30 09:00:00 UTC)");
    assertThat(WaitsFor.landingGate(queue(withWindows(List.of(saturday)), null), SATURDAY_NOON))
        .as("an open window keeps nothing back")
        .isEmpty();
    assertThat(WaitsFor.landingGate(queue(SETTINGS, null), SATURDAY_NOON)).isEmpty();
  }

  @Test
  void aPendingPrWaitsForWhatItDependsOnBeforeASlot() {
    assertThat(WaitsFor.dependencies(List.of(7L, 9L)))
        .hasValue("the pull requests it depends on to be tested first: #7, #9");
    assertThat(WaitsFor.dependencies(List.of())).as("then it waits for a slot").isEmpty();
  }

  @Test
  void aPrInARedRunWaitsForWhatItsRunWaitsFor() {
    TestRunDocument half =
        new TestRunDocument("r1", "q", null, null, TestRunDocument.BISECTION, null);
    TestRunDocument chain = new TestRunDocument("r2", "q", null, null, TestRunDocument.MAIN, null);

    assertThat(WaitsFor.redRun(half))
        .isEqualTo(
            "the test results of its red bisection run (up to a minute) before it is judged");
    assertThat(WaitsFor.redRun(chain))
        .isEqualTo(
            "the runs around its red run to finish, or its test results (up to a minute), before"
                + " it is declared failed");
    assertThat(WaitsFor.redRun(null)).isEqualTo(WaitsFor.redRun(chain));
  }
}

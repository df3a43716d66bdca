package dev.trainyard.gateway.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Where the queue page draws each run: lanes side by side, each run above what it waits on. */
class RunGraphTest {

  private static RunGraph.Run run(String id, String... waitingOn) {
    return new RunGraph.Run(id, false, List.of(waitingOn));
  }

  private static RunGraph.Run half(String id, String... waitingOn) {
    return new RunGraph.Run(id, true, List.of(waitingOn));
  }

  /** Each row: the runs, oldest first, and "id@lane:level" for each, in the same order. */
  static Stream<Arguments> layouts() {
    return Stream.of(
        Arguments.of("nothing testing", List.of(), List.of(), 0),
        Arguments.of("one run", List.of(run("a")), List.of("a@0:0"), 1),
        Arguments.of(
            "a speculative chain stacks in one lane",
            List.of(run("a"), run("b", "a"), run("c", "a", "b")),
            List.of("a@0:0", "b@0:1", "c@0:2"),
            1),
        Arguments.of(
            "disjoint lanes side by side, in the order of their oldest run",
            List.of(run("a"), run("x"), run("b", "a"), run("y", "x")),
            List.of("a@0:0", "x@1:0", "b@0:1", "y@1:1"),
            2),
        Arguments.of(
            "bisection halves get lanes of their own, after the main lanes",
            List.of(half("h1"), half("h2"), run("a")),
            List.of("h1@1:0", "h2@2:0", "a@0:0"),
            3),
        Arguments.of(
            "a run waiting on one that is not drawn (landed) stands on the target",
            List.of(run("b", "gone")),
            List.of("b@0:0"),
            1),
        Arguments.of(
            "a cycle, never written, is cut instead of looping",
            List.of(run("a", "b"), run("b", "a")),
            List.of("a@0:1", "b@0:0"),
            1));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("layouts")
  void placesEachRun(String why, List<RunGraph.Run> runs, List<String> expected, int lanes) {
    RunGraph.Layout layout = RunGraph.layout(runs);

    assertThat(layout.places())
        .extracting(p -> p.id() + "@" + p.lane() + ":" + p.level())
        .containsExactlyElementsOf(expected);
    assertThat(layout.lanes()).isEqualTo(lanes);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("layouts")
  void drawsEveryBoxInsideTheDrawingApartWithAnEdgePerDrawnWait(
      String why, List<RunGraph.Run> runs, List<String> expected, int lanes) {
    RunGraph.Layout layout = RunGraph.layout(runs);

    for (RunGraph.Place p : layout.places()) {
      assertThat(p.x()).isBetween(0, layout.width() - RunGraph.BOX_WIDTH);
      assertThat(p.y()).isBetween(0, layout.height() - RunGraph.BOX_HEIGHT);
    }
    for (RunGraph.Place p : layout.places()) {
      for (RunGraph.Place q : layout.places()) {
        boolean sameCell = p != q && p.lane() == q.lane() && p.level() == q.level();
        assertThat(sameCell).as(p + " and " + q + " overlap").isFalse();
      }
    }
    long drawnEdges =
        runs.stream()
            .flatMap(r -> r.waitingOn().stream())
            .filter(id -> runs.stream().anyMatch(r -> r.id().equals(id)))
            .count();
    assertThat(layout.edges()).hasSize((int) drawnEdges);
  }
}

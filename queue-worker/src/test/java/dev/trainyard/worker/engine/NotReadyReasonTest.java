package dev.trainyard.worker.engine;

import static dev.trainyard.worker.engine.QueueFixture.eventNames;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.queue.Mergeability;
import dev.trainyard.common.queue.PrState;
import dev.trainyard.common.view.PullRequestView;
import dev.trainyard.worker.projection.Views;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The queue's source problem (recorded by the shell when no adapter serves the repository or its
 * remote cannot be fetched) and the one sentence a not-ready PR shows, in the order the readiness
 * rule checks.
 */
class NotReadyReasonTest {

  static Stream<Arguments> sourceProblems() {
    return Stream.of(
        Arguments.of(null, "unreachable", List.of("SourceProblemChanged")),
        Arguments.of("unreachable", "unreachable", List.of()),
        Arguments.of("unreachable", "refused", List.of("SourceProblemChanged")),
        Arguments.of("unreachable", null, List.of("SourceProblemChanged")),
        Arguments.of(null, null, List.of()));
  }

  @ParameterizedTest(name = "recorded {0}, reported {1} → {2}")
  @MethodSource("sourceProblems")
  void aSourceProblemIsAnEventOnlyWhenItChanges(
      String recorded, String reported, List<String> events) {
    QueueFixture q = QueueFixture.queue();
    if (recorded != null) {
      q.apply(new QueueCommand.RecordSourceProblem(recorded));
    }
    assertThat(eventNames(q.decide(new QueueCommand.RecordSourceProblem(reported))))
        .isEqualTo(events);
    q.apply(new QueueCommand.RecordSourceProblem(reported));
    assertThat(q.state().sourceProblem()).isEqualTo(reported);
  }

  static Stream<Arguments> reasons() {
    return Stream.of(
        Arguments.of(
            "the source problem first",
            (UnaryOperator<QueueFixture>)
                q -> q.apply(new QueueCommand.RecordSourceProblem("the remote is down")),
            "the remote is down"),
        Arguments.of(
            "never reported",
            UnaryOperator.<QueueFixture>identity(),
            "the source host has not reported pull request #1 yet"),
        Arguments.of(
            "another base",
            (UnaryOperator<QueueFixture>)
                q -> q.apply(observed(1, "release", Mergeability.MERGEABLE)),
            "its base branch is release, not the queue's branch main"),
        Arguments.of(
            "a conflict",
            (UnaryOperator<QueueFixture>)
                q -> q.apply(observed(1, "main", Mergeability.NOT_MERGEABLE)),
            "it does not merge cleanly into main"),
        Arguments.of(
            "mergeability pending",
            (UnaryOperator<QueueFixture>)
                q -> q.apply(observed(1, "main", Mergeability.IN_PROGRESS)),
            "its mergeability is not known yet"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("reasons")
  void aNotReadyPullRequestSaysWhy(String name, UnaryOperator<QueueFixture> setup, String reason) {
    QueueFixture q = setup.apply(QueueFixture.queue().submitted(1));
    Entry entry = q.state().activeEntry(1).orElseThrow();
    assertThat(entry.state()).isEqualTo(PrState.NOT_READY);
    PullRequestView view = Views.pullRequest(q.state(), entry);
    assertThat(view.readiness().notReadyReason()).isEqualTo(reason);
  }

  @ParameterizedTest(name = "ready: {0}")
  @MethodSource("readyStates")
  void aPullRequestThatIsNotNotReadyHasNoReason(String name, UnaryOperator<QueueFixture> setup) {
    QueueFixture q = setup.apply(QueueFixture.queue().submitted(1));
    Entry entry = q.state().activeEntry(1).orElseThrow();
    assertThat(entry.state()).isNotEqualTo(PrState.NOT_READY);
    assertThat(Views.pullRequest(q.state(), entry).readiness().notReadyReason()).isNull();
  }

  static Stream<Arguments> readyStates() {
    return Stream.of(
        Arguments.of(
            "mergeable",
            (UnaryOperator<QueueFixture>)
                q -> q.apply(observed(1, "main", Mergeability.MERGEABLE))));
  }

  private static QueueCommand observed(long pr, String base, Mergeability mergeability) {
    return new QueueCommand.RecordPullRequestState(
        pr,
        true,
        "sha-" + pr,
        "Change " + pr,
        "dev" + pr,
        base,
        null,
        mergeability,
        null,
        List.of());
  }
}

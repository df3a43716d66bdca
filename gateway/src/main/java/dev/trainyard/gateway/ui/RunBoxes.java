package dev.trainyard.gateway.ui;

import dev.trainyard.common.view.TestRunDocument;
import dev.trainyard.common.view.TestingDetails;
import java.util.List;

/** A queue's live runs drawn as the graph of {@link RunGraph}, and listed as a table beside it. */
public record RunBoxes(
    List<Box> boxes, List<RunGraph.Edge> edges, int width, int height, int lanes) {

  /** One run: where it is drawn and what it says. */
  public record Box(
      String id,
      String shortId,
      String branch,
      String sha,
      String status,
      String prs,
      boolean batch,
      boolean bisection,
      List<Check> checks,
      String failure,
      int x,
      int y,
      int lane) {
    static Box of(TestRunDocument run, RunGraph.Place place) {
      TestingDetails d = run.details();
      List<Check> checks =
          d.statusChecks().stream()
              .map(c -> new Check(c.context(), c.state().toLowerCase(), safeUrl(c.url())))
              .toList();
      String sha = d.testBranchSha() == null ? "" : d.testBranchSha();
      return new Box(
          run.id(),
          run.id().length() > 8 ? run.id().substring(0, 8) : run.id(),
          d.testBranch(),
          sha.length() > 10 ? sha.substring(0, 10) : sha,
          d.status().toLowerCase(),
          String.join(" ", d.testedPullRequests().stream().map(p -> "#" + p.prNumber()).toList()),
          d.testedPullRequests().size() > 1,
          TestRunDocument.BISECTION.equals(run.queueType()),
          checks,
          d.failureReason() == null ? "" : d.failureReason(),
          place == null ? 0 : place.x(),
          place == null ? 0 : place.y(),
          place == null ? 0 : place.lane());
    }
  }

  /** A CI status with its link (only http(s) links are made clickable). */
  public record Check(String context, String state, String url) {}

  static String safeUrl(String url) {
    return url != null && (url.startsWith("https://") || url.startsWith("http://")) ? url : null;
  }

  static RunBoxes of(List<TestRunDocument> runs) {
    RunGraph.Layout layout =
        RunGraph.layout(
            runs.stream()
                .map(
                    r ->
                        new RunGraph.Run(
                            r.id(),
                            TestRunDocument.BISECTION.equals(r.queueType()),
                            r.details().waitingOnTestRunIds()))
                .toList());
    return new RunBoxes(
        runs.stream().map(r -> Box.of(r, layout.place(r.id()))).toList(),
        layout.edges(),
        layout.width(),
        layout.height(),
        layout.lanes());
  }
}

package dev.trainyard.worker.engine;

/**
 * A PR as a test run includes it: the head commit that was tested, and the risk its submit
 * predicted when the run started ({@code predictedRisk}, null: none), which is what the queue
 * scores the prediction by when the PR concludes ({@link PredictionScore}): a resubmit after the
 * run's verdict was seen does not change what is scored.
 */
public record TestedPr(
    String entryId, long number, String sha, String title, Double predictedRisk) {
  TestedPr(Entry e) {
    this(e.id(), e.prNumber(), e.pr().sha(), e.pr().title(), e.predictedRisk());
  }
}

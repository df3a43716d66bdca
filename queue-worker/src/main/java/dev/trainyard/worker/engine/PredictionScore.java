package dev.trainyard.worker.engine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How well the risks the submits predicted told the PRs that failed from those that merged, in this
 * queue (SCHEDULING.md "Predicted risk"): for each band of predicted risk ({@link #EDGES}), the PRs
 * with a prediction that failed their tests alone ({@code failed}) and that merged ({@code
 * merged}), each count weighted down by {@link #DECAY} at every later outcome so the score follows
 * a predictor that changes. The queue spends by predictions only once they {@link #discriminates
 * discriminate}: a predictor that has not shown it, or is blind, would split batches at random and
 * spend the runs the batches need. Two lists of {@code EDGES.length + 1} counts, whatever the
 * queue's age, so the queue document does not grow with it; both empty before the first outcome, so
 * a queue whose submits predict nothing stores two empty lists.
 */
public record PredictionScore(List<Double> failed, List<Double> merged) {
  /** The upper edges of the bands of predicted risk (the last band runs to 1). */
  static final double[] EDGES = {
    0.005, 0.01, 0.02, 0.03, 0.04, 0.05, 0.07, 0.1, 0.14, 0.2, 0.3, 0.45, 0.65
  };

  /** What each outcome weighs at the next: the last 500 or so PRs with a prediction count. */
  static final double DECAY = 1 - 1.0 / 500;

  /**
   * Failures below which no predictor is trusted: too few to tell it from chance. Weighted, so five
   * in a row (4.98 once decayed) count: the threshold sits half a PR below the count it means.
   */
  static final double MIN_FAILED = 4.5;

  /** Merges below which no predictor is trusted, whatever its AUC: a ranking needs both kinds. */
  static final double MIN_MERGED = 19.5;

  /** One-sided 95 %: the predictor is trusted once chance is that unlikely to score as well. */
  static final double Z = 1.645;

  public static final PredictionScore NONE = new PredictionScore(List.of(), List.of());

  public PredictionScore {
    // documents written before the key existed, or with other bands: nothing on record
    boolean fits =
        failed != null
            && merged != null
            && failed.size() == EDGES.length + 1
            && merged.size() == EDGES.length + 1
            && failed.stream().noneMatch(Objects::isNull)
            && merged.stream().noneMatch(Objects::isNull);
    failed = fits ? List.copyOf(failed) : List.of();
    merged = fits ? List.copyOf(merged) : List.of();
  }

  /**
   * This score with one more outcome per PR of {@code risks} (null: no prediction, not counted).
   */
  PredictionScore observed(List<Double> risks, boolean prsFailed) {
    PredictionScore next = this;
    for (Double risk : risks) {
      if (risk != null) {
        next = next.observed(risk, prsFailed);
      }
    }
    return next;
  }

  private PredictionScore observed(double risk, boolean prFailed) {
    List<Double> f = decayed(failed);
    List<Double> m = decayed(merged);
    int band = band(risk);
    List<Double> target = prFailed ? f : m;
    target.set(band, target.get(band) + 1);
    return new PredictionScore(f, m);
  }

  /**
   * The chance that a PR that failed was predicted riskier than one that merged (a tie counts
   * half): 0.5 for a blind predictor, 1 for a perfect one; 0.5 before both kinds were seen.
   */
  public double auc() {
    double f = sum(failed);
    double m = sum(merged);
    if (f == 0 || m == 0) {
      return 0.5;
    }
    double below = 0;
    double pairs = 0;
    for (int i = 0; i < failed.size(); i++) {
      pairs += failed.get(i) * (below + merged.get(i) / 2);
      below += merged.get(i);
    }
    return pairs / (f * m);
  }

  /** The {@link #auc} once five failures and twenty merges weigh in; empty before. */
  public Optional<Double> shownAuc() {
    return enough() ? Optional.of(auc()) : Optional.empty();
  }

  /**
   * The predictions tell failures from merges better than chance would, at 95 % one-sided: the AUC
   * is Mann and Whitney's statistic over failures × merges, and under a predictor that knows
   * nothing it is 0.5 with variance (f + m + 1) / (12 f m); over at least five failures and twenty
   * merges, since at fewer a perfect ranking by luck is too likely to mean anything.
   */
  public boolean discriminates() {
    if (!enough()) {
      return false;
    }
    double f = sum(failed);
    double m = sum(merged);
    double chance = Math.sqrt((f + m + 1) / (12 * f * m));
    return (auc() - 0.5) / chance > Z;
  }

  private boolean enough() {
    return sum(failed) >= MIN_FAILED && sum(merged) >= MIN_MERGED;
  }

  static int band(double risk) {
    int i = 0;
    while (i < EDGES.length && risk > EDGES[i]) {
      i++;
    }
    return i;
  }

  private static List<Double> decayed(List<Double> counts) {
    List<Double> next = new ArrayList<>(EDGES.length + 1);
    for (double c : counts.isEmpty() ? Collections.nCopies(EDGES.length + 1, 0.0) : counts) {
      next.add(c * DECAY);
    }
    return next;
  }

  private static double sum(List<Double> counts) {
    return counts.stream().mapToDouble(Double::doubleValue).sum();
  }
}

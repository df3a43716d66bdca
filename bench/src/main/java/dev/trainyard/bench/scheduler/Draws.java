package dev.trainyard.bench.scheduler;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;
import java.util.stream.IntStream;

/** The distributions a team's workload draws from, and the AUC a predictor is held to. */
final class Draws {
  private Draws() {}

  /** Gamma(shape, 1) by Marsaglia and Tsang; below shape 1 boosted by U^(1/shape). */
  static double gamma(Random random, double shape) {
    if (shape < 1) {
      return gamma(random, shape + 1) * Math.pow(random.nextDouble(), 1 / shape);
    }
    double d = shape - 1.0 / 3;
    double c = 1 / Math.sqrt(9 * d);
    while (true) {
      double x = random.nextGaussian();
      double v = Math.pow(1 + c * x, 3);
      if (v <= 0) {
        continue;
      }
      double u = random.nextDouble();
      if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) {
        return d * v;
      }
    }
  }

  static double beta(Random random, double a, double b) {
    double x = gamma(random, a);
    double y = gamma(random, b);
    return x / (x + y);
  }

  /** An exponential gap of mean {@code mean}. */
  static double exponential(Random random, double mean) {
    return -Math.log(1 - random.nextDouble()) * mean;
  }

  /** A log-normal draw of median {@code median} and log-spread {@code sigma}. */
  static double logNormal(Random random, double median, double sigma) {
    return median * Math.exp(sigma * random.nextGaussian());
  }

  /**
   * The area under the ROC curve of {@code scores} for telling {@code positive} cases from the
   * others (Mann–Whitney, ties counted half); 0.5 when either class is empty.
   */
  static double auc(double[] scores, boolean[] positive) {
    Integer[] order = IntStream.range(0, scores.length).boxed().toArray(Integer[]::new);
    Arrays.sort(order, Comparator.comparingDouble(i -> scores[i]));
    double rankSum = 0;
    long positives = 0;
    int i = 0;
    while (i < order.length) {
      int j = i;
      while (j + 1 < order.length && scores[order[j + 1]] == scores[order[i]]) {
        j++;
      }
      double rank = (i + j) / 2.0 + 1; // the mean rank of a run of ties
      for (int k = i; k <= j; k++) {
        if (positive[order[k]]) {
          rankSum += rank;
          positives++;
        }
      }
      i = j + 1;
    }
    long negatives = scores.length - positives;
    if (positives == 0 || negatives == 0) {
      return 0.5;
    }
    return (rankSum - positives * (positives + 1) / 2.0) / (positives * (double) negatives);
  }
}

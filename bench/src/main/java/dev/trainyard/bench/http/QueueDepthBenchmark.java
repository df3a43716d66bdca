package dev.trainyard.bench.http;

import dev.trainyard.bench.http.LoadGenerator.Call;
import dev.trainyard.bench.http.LoadGenerator.Result;
import dev.trainyard.bench.stack.StandaloneProcess;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a deep queue costs a submit: {@code submitPullRequest} at a fixed rate into a queue already
 * holding {@code depth} waiting PRs, beside the same rate spread over {@value #SMALL} queues that
 * start empty (they hold at most rate × seconds / {@value #SMALL} each by the end), in the same
 * run. Arguments: {@code [jar] [depth] [submits/s] [seconds per phase]}.
 */
public final class QueueDepthBenchmark {
  private static final int SMALL = 20;
  private static final int SEED_IN_FLIGHT = 16;

  private QueueDepthBenchmark() {}

  public static void main(String[] args) throws Exception {
    int depth = args.length > 1 ? Integer.parseInt(args[1]) : 5_000;
    double rate = args.length > 2 ? Double.parseDouble(args[2]) : 20;
    Duration phase = Duration.ofSeconds(args.length > 3 ? Long.parseLong(args[3]) : 20);
    try (StandaloneProcess standalone = StandaloneProcess.start(StandaloneProcess.jar(args))) {
      LoadGenerator load = new LoadGenerator(standalone.baseUrl(), standalone.token());
      Map<Integer, Long> retried = new TreeMap<>();
      Result created =
          load.untilAnswered(
              "create queues",
              SEED_IN_FLIGHT,
              SMALL + 2,
              i -> new Call("POST", "/v1/createQueue", repo((int) i), "depth-queue-" + i),
              retried);
      Result seeded =
          load.untilAnswered(
              "seed the deep queue",
              SEED_IN_FLIGHT,
              depth,
              i -> new Call("POST", "/v1/submitPullRequest", pr(SMALL, i), "depth-pr-" + i),
              retried);
      System.out.printf(
          Locale.ROOT,
          "seeded one queue with %,d waiting PRs in %.1f s (%.0f PRs/s); answers waited out: %s%n",
          depth,
          seeded.seconds(),
          seeded.throughput(),
          retried);
      if (created.errors() + seeded.errors() > 0) {
        throw new IllegalStateException(
            "seeding failed: " + created.statuses() + " " + seeded.statuses());
      }
      // warm-up on a queue of its own: JIT, connections
      load.openLoop(
          "warm-up", rate, phase, i -> new Call("POST", "/v1/submitPullRequest", pr(SMALL + 1, i)));
      String atRate = " @ " + (int) rate + "/s";
      Result small =
          load.openLoop(
              "submit into " + SMALL + " queues starting empty" + atRate,
              rate,
              phase,
              i -> new Call("POST", "/v1/submitPullRequest", pr((int) (i % SMALL), 1_000_000 + i)));
      Result deep =
          load.openLoop(
              "submit into the queue of " + depth + " waiting PRs" + atRate,
              rate,
              phase,
              i -> new Call("POST", "/v1/submitPullRequest", pr(SMALL, 1_000_000 + i)));
      Result.printTable(phase, List.of(small, deep));
      System.out.printf(
          Locale.ROOT,
          "%nsubmit p99, deep queue / queues starting empty: %.2f (target <= 1.5)%n",
          deep.p99Millis() / small.p99Millis());
    }
  }

  private static String repo(int queue) {
    return Bodies.queue("depth-" + queue);
  }

  private static String pr(int queue, long number) {
    return Bodies.pr("depth-" + queue, number + 1);
  }
}

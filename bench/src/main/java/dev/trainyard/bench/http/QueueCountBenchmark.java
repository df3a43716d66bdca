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
 * What the number of queues costs a CI status: {@code reportStatus} at a fixed rate for one
 * repository's queue while the organization has {@value #FEW} queues, then the same again once it
 * has {@code queues} more on other repositories, in the same run. A status reaches every queue of
 * its repository, so the gateway looks them up by the repository's id prefix; the figures should
 * not grow with queues the status does not reach. Arguments: {@code [jar] [queues] [statuses/s]
 * [seconds per phase]}.
 */
public final class QueueCountBenchmark {
  private static final int FEW = 10;
  private static final int SEED_IN_FLIGHT = 16;

  private QueueCountBenchmark() {}

  /** The arguments after the jar: more queues, statuses per second, each phase's length. */
  private record Run(int queues, double rate, Duration phase) {
    static Run of(String[] args) {
      return new Run(
          args.length > 1 ? Integer.parseInt(args[1]) : 10_000,
          args.length > 2 ? Double.parseDouble(args[2]) : 20,
          Duration.ofSeconds(args.length > 3 ? Long.parseLong(args[3]) : 20));
    }
  }

  public static void main(String[] args) throws Exception {
    Run run = Run.of(args);
    int queues = run.queues();
    double rate = run.rate();
    Duration phase = run.phase();
    try (StandaloneProcess standalone = StandaloneProcess.start(StandaloneProcess.jar(args))) {
      LoadGenerator load = new LoadGenerator(standalone.baseUrl(), standalone.token());
      Map<Integer, Long> retried = new TreeMap<>();
      create(load, 0, FEW, retried);
      String atRate = " @ " + (int) rate + "/s";
      load.openLoop("warm-up", rate, phase, QueueCountBenchmark::status);
      Result few =
          load.openLoop(FEW + " queues" + atRate, rate, phase, QueueCountBenchmark::status);
      Result created = create(load, FEW, queues, retried);
      System.out.printf(
          Locale.ROOT,
          "created %,d more queues in %.1f s; answers waited out: %s%n",
          queues,
          created.seconds(),
          retried);
      Result many =
          load.openLoop(
              (FEW + queues) + " queues" + atRate, rate, phase, QueueCountBenchmark::status);
      Result.printTable(phase, List.of(few, many));
      System.out.printf(
          Locale.ROOT,
          "%nreportStatus with %,d queues / with %d: p50 %.2f, p99 %.2f (target: 1, no growth)%n",
          FEW + queues,
          FEW,
          many.p50Millis() / few.p50Millis(),
          many.p99Millis() / few.p99Millis());
    }
  }

  private static Result create(
      LoadGenerator load, int from, int count, Map<Integer, Long> retried) {
    Result created =
        load.untilAnswered(
            "create queues",
            SEED_IN_FLIGHT,
            count,
            i ->
                new Call(
                    "POST",
                    "/v1/createQueue",
                    Bodies.queue("count-" + (from + i)),
                    "count-queue-" + (from + i)),
            retried);
    if (created.errors() > 0) {
      throw new IllegalStateException("creating queues failed: " + created.statuses());
    }
    return created;
  }

  /** A success for one of ten commits no run holds (kept until one does), on the first queue. */
  private static Call status(long i) {
    String sha = String.format(Locale.ROOT, "%040x", i % 10 + 1);
    return new Call(
        "POST",
        "/v1/ci/reportStatus",
        "{\"repo\":{\"host\":\"github.com\",\"owner\":\"bench\",\"name\":\"count-0\"},\"sha\":\""
            + sha
            + "\",\"context\":\"ci/test\",\"state\":\"success\"}");
  }
}

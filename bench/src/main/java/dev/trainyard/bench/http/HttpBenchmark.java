package dev.trainyard.bench.http;

import dev.trainyard.bench.http.LoadGenerator.Call;
import dev.trainyard.bench.http.LoadGenerator.Result;
import dev.trainyard.bench.stack.ClusterProcess;
import dev.trainyard.bench.stack.Stack;
import dev.trainyard.bench.stack.StandaloneProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.DoubleStream;

/**
 * {@code getSubmittedPullRequest} and {@code submitPullRequest} against a freshly started
 * standalone, each beside {@code /actuator/health} measured in the same run:
 *
 * <ul>
 *   <li>reads: throughput at saturation (closed loop), as a ratio of health's;
 *   <li>submits: p50/p99 at a fixed arrival rate (open loop), beside health at the same rate.
 * </ul>
 *
 * Arguments: {@code [jar] [seconds per phase] [submit rate/s] [in-flight for saturation] [queues]};
 * the PRs submitted are spread over the queues. Each phase also prints the CPU each service spent
 * per request: {@link #main} runs the standalone (one process, so one figure for all), {@link
 * #cluster} the chart's topology with every service a process of its own.
 */
public final class HttpBenchmark {
  static int queues = 50;
  private static final int PRS_PER_QUEUE = 20;
  private static final int SEED_IN_FLIGHT = 16;
  private static final Call HEALTH = new Call("GET", "/actuator/health", null);

  private HttpBenchmark() {}

  public static void main(String[] args) throws Exception {
    run(StandaloneProcess::start, args);
  }

  /** As {@link #main}, against {@link ClusterProcess}: CPU per request for each service. */
  public static void cluster(String[] args) throws Exception {
    run(ClusterProcess::start, args);
  }

  /** How a benchmark starts the stack it measures, from the standalone jar. */
  private interface Starter {
    Stack start(Path jar) throws Exception;
  }

  /** What one run measured, for comparing jars ({@link ReleaseComparison}). */
  record Summary(
      double healthPerSecond,
      double readsPerSecond,
      double readCpuMillis,
      double submitP50Millis,
      double submitP99Millis,
      double submitCpuMillis,
      long errors,
      double readCpuWithoutJitMillis,
      double submitCpuWithoutJitMillis,
      double healthCpuMillis,
      double readGcMillis) {
    double readsOverHealth() {
      return readsPerSecond / healthPerSecond;
    }

    /** Its figures on one line, as {@link #parse} reads them (a run in a process of its own). */
    String line() {
      return DoubleStream.of(
              healthPerSecond,
              readsPerSecond,
              readCpuMillis,
              submitP50Millis,
              submitP99Millis,
              submitCpuMillis,
              errors,
              readCpuWithoutJitMillis,
              submitCpuWithoutJitMillis,
              healthCpuMillis,
              readGcMillis)
          .mapToObj(Double::toString)
          .collect(Collectors.joining(" "));
    }

    static Summary parse(String line) {
      double[] v = Arrays.stream(line.trim().split(" ")).mapToDouble(Double::parseDouble).toArray();
      if (v.length != 11) {
        throw new IllegalArgumentException("a run's summary has 11 figures, not: " + line);
      }
      return new Summary(v[0], v[1], v[2], v[3], v[4], v[5], (long) v[6], v[7], v[8], v[9], v[10]);
    }
  }

  /** One run against the standalone {@code args} name, as {@link #main}; what it measured. */
  static Summary standalone(String[] args) throws Exception {
    return run(StandaloneProcess::start, args);
  }

  private static Summary run(Starter starter, String[] args) throws Exception {
    Duration phase = Duration.ofSeconds(args.length > 1 ? Long.parseLong(args[1]) : 20);
    double rate = args.length > 2 ? Double.parseDouble(args[2]) : 200;
    int inFlight = args.length > 3 ? Integer.parseInt(args[3]) : 64;
    queues = args.length > 4 ? Integer.parseInt(args[4]) : 50;
    try (Stack stack = starter.start(StandaloneProcess.jar(args))) {
      LoadGenerator load = new LoadGenerator(stack.baseUrl(), stack.token());
      seed(load);
      // seeding fills the heap by a different amount on every run (and jar): the standalone's is
      // collected once here, so a read is not measured on a heap the seeding left full
      stack.collectGarbage();
      List<Result> results = new ArrayList<>();
      CpuMeter cpu = new CpuMeter(stack);
      // Each workload is warmed up right before it is measured: JIT compilation, connection
      // pools, Kafka producer metadata. The warm-ups are printed as well: they are what a freshly
      // started stack does.
      String atRate = " @ " + (int) rate + "/s";
      Result readWarmUp =
          cpu.measure(() -> load.closedLoop("warm-up: reads", inFlight, phase, i -> read(i)));
      Result health =
          cpu.measure(() -> load.closedLoop("health (saturation)", inFlight, phase, i -> HEALTH));
      Result reads =
          cpu.measure(
              () ->
                  load.closedLoop(
                      "getSubmittedPullRequest (saturation)", inFlight, phase, i -> read(i)));
      Result submitWarmUp =
          cpu.measure(
              () ->
                  load.openLoop(
                      "warm-up: submits" + atRate,
                      rate,
                      submitWarmUp(phase),
                      i -> submit(1_000_000 + i)));
      Result healthAtRate =
          cpu.measure(() -> load.openLoop("health" + atRate, rate, phase, i -> HEALTH));
      Result submits =
          cpu.measure(
              () ->
                  load.openLoop(
                      "submitPullRequest" + atRate, rate, phase, i -> submit(2_000_000 + i)));
      results.add(readWarmUp);
      results.add(health);
      results.add(reads);
      results.add(submitWarmUp);
      results.add(healthAtRate);
      results.add(submits);
      print(
          results,
          cpu,
          reads.throughput() / health.throughput(),
          submits,
          healthAtRate,
          phase,
          inFlight);
      return new Summary(
          health.throughput(),
          reads.throughput(),
          cpu.perRequest(reads),
          submits.p50Millis(),
          submits.p99Millis(),
          cpu.perRequest(submits),
          health.errors() + reads.errors() + healthAtRate.errors() + submits.errors(),
          cpu.perRequestWithoutJit(reads),
          cpu.perRequestWithoutJit(submits),
          cpu.perRequest(health),
          cpu.collectingPerRequest(reads));
    }
  }

  /**
   * At least a minute of submits before they are measured. On two cores the JIT's C2 compiler
   * thread stays busy for the first three minutes of the stack's life (8-16 s of compilation in
   * every 20 s, JFR, 2026-11-26): a submit phase measured within them measured the compiler.
   */
  private static Duration submitWarmUp(Duration phase) {
    return phase.compareTo(Duration.ofSeconds(60)) > 0 ? phase : Duration.ofSeconds(60);
  }

  /**
   * The CPU each service spends on each measured phase, per request (ms), from its processes'
   * counters. Work a phase leaves queued when it ends counts in the phase after it.
   */
  private static final class CpuMeter {
    private final Stack stack;
    private final Map<Result, Map<String, Double>> perRequest = new IdentityHashMap<>();
    private final Map<Result, Double> compilingPerRequest = new IdentityHashMap<>();
    private final Map<Result, Double> collectingPerRequest = new IdentityHashMap<>();

    CpuMeter(Stack stack) {
      this.stack = stack;
    }

    Result measure(Supplier<Result> phase) {
      Duration compiledBefore = total(stack.compileTimes());
      Duration collectedBefore = total(stack.gcTimes());
      Map<String, Duration> before = stack.cpuTimes();
      Result result = phase.get();
      Duration compiled = total(stack.compileTimes()).minus(compiledBefore);
      Duration collected = total(stack.gcTimes()).minus(collectedBefore);
      compilingPerRequest.put(result, compiled.toNanos() / 1e6 / Math.max(1, result.requests()));
      collectingPerRequest.put(result, collected.toNanos() / 1e6 / Math.max(1, result.requests()));
      Map<String, Double> spent = new TreeMap<>();
      stack
          .cpuTimes()
          .forEach(
              (service, now) ->
                  spent.put(
                      service,
                      now.minus(before.getOrDefault(service, Duration.ZERO)).toNanos()
                          / 1e6
                          / Math.max(1, result.requests())));
      perRequest.put(result, spent);
      return result;
    }

    private static Duration total(Map<String, Duration> times) {
      return times.values().stream().reduce(Duration.ZERO, Duration::plus);
    }

    /** The whole stack's CPU per request. */
    double perRequest(Result result) {
      return perRequest.get(result).values().stream().mapToDouble(Double::doubleValue).sum();
    }

    /** The JIT compilers' time per request, within {@link #perRequest} (0 where not read). */
    double compilingPerRequest(Result result) {
      return compilingPerRequest.getOrDefault(result, 0.0);
    }

    /** The garbage collectors' time per request, within {@link #perRequest} (0 where not read). */
    double collectingPerRequest(Result result) {
      return collectingPerRequest.getOrDefault(result, 0.0);
    }

    /** The stack's CPU per request less its JIT compilers': the cost once it is warm. */
    double perRequestWithoutJit(Result result) {
      return perRequest(result) - compilingPerRequest(result);
    }

    /** Each service's CPU per request, when the stack has more than one process. */
    void printByService(List<Result> results) {
      List<String> services = List.copyOf(perRequest.get(results.get(0)).keySet());
      if (services.size() < 2) {
        return;
      }
      System.out.printf(
          Locale.ROOT, "%n| CPU ms per request | %s |%n", String.join(" | ", services));
      System.out.println("|---|" + "---:|".repeat(services.size()));
      for (Result r : results) {
        StringBuilder row = new StringBuilder("| " + r.name() + " |");
        for (String service : services) {
          row.append(String.format(Locale.ROOT, " %.3f |", perRequest.get(r).get(service)));
        }
        System.out.println(row);
      }
    }
  }

  /**
   * Creates the queues and the PRs the reads look up, {@value #SEED_IN_FLIGHT} requests at a time,
   * each sent again after a 429 or 503 (same idempotency key) until it is answered: seeding goes at
   * the rate the stack holds and fails only on an answer that is not "not now".
   */
  static void seed(LoadGenerator load) {
    Map<Integer, Long> retried = new TreeMap<>();
    Result created =
        load.untilAnswered(
            "seed queues",
            SEED_IN_FLIGHT,
            queues,
            i -> new Call("POST", "/v1/createQueue", repo((int) i), "seed-queue-" + i),
            retried);
    Result submitted =
        load.untilAnswered(
            "seed PRs",
            SEED_IN_FLIGHT,
            (long) queues * PRS_PER_QUEUE,
            i ->
                new Call(
                    "POST",
                    "/v1/submitPullRequest",
                    prBody((int) (i % queues), i / queues),
                    "seed-pr-" + i),
            retried);
    System.out.printf(
        Locale.ROOT,
        "seeded %d queues and %d PRs in %.1f s (%.0f PRs/s); answers waited out: %s%n",
        queues,
        submitted.requests(),
        created.seconds() + submitted.seconds(),
        submitted.throughput(),
        retried);
    if (created.errors() + submitted.errors() > 0) {
      throw new IllegalStateException(
          "seeding failed: " + created.statuses() + " " + submitted.statuses());
    }
  }

  static Call read(long i) {
    return new Call(
        "POST",
        "/v1/getSubmittedPullRequest",
        prBody((int) (i % queues), (i / queues) % PRS_PER_QUEUE));
  }

  static Call submit(long number) {
    return new Call("POST", "/v1/submitPullRequest", prBody((int) (number % queues), number));
  }

  private static String repo(int queue) {
    return Bodies.queue("repo-" + queue);
  }

  private static String prBody(int queue, long number) {
    return Bodies.pr("repo-" + queue, number);
  }

  private static void print(
      List<Result> results,
      CpuMeter cpu,
      double readRatio,
      Result submits,
      Result healthAtRate,
      Duration phase,
      int inFlight) {
    System.out.printf(
        Locale.ROOT,
        "%n| phase (%ds each, %d in flight at saturation) | requests | errors | req/s | p50 ms | p99 ms | stack CPU ms/request | of which JIT | of which GC |%n",
        phase.toSeconds(),
        inFlight);
    System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (Result r : results) {
      System.out.printf(
          Locale.ROOT,
          "| %s | %d | %d | %.0f | %.2f | %.2f | %.3f | %.3f | %.3f |%n",
          r.name(),
          r.requests(),
          r.errors(),
          r.throughput(),
          r.p50Millis(),
          r.p99Millis(),
          cpu.perRequest(r),
          cpu.compilingPerRequest(r),
          cpu.collectingPerRequest(r));
      if (r.errors() > 0) {
        System.out.println("  statuses of " + r.name() + ": " + r.statuses() + " (-1 = no answer)");
      }
    }
    cpu.printByService(results);
    System.out.printf(
        Locale.ROOT, "%nreads / health throughput: %.2f (target >= 0.70)%n", readRatio);
    System.out.printf(
        Locale.ROOT,
        "submit p99 / health p99 at the same rate: %.1f ms / %.1f ms (target submit p99 <= 100 ms)%n",
        submits.p99Millis(),
        healthAtRate.p99Millis());
  }
}

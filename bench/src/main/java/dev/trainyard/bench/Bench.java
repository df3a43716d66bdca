package dev.trainyard.bench;

import dev.trainyard.bench.flaky.ClassificationBenchmark;
import dev.trainyard.bench.flaky.FlakyBenchmark;
import dev.trainyard.bench.flaky.FlappingSimulation;
import dev.trainyard.bench.flaky.HistoryBenchmark;
import dev.trainyard.bench.github.GithubRequestsBenchmark;
import dev.trainyard.bench.http.DashboardBenchmark;
import dev.trainyard.bench.http.FleetBenchmark;
import dev.trainyard.bench.http.HttpBenchmark;
import dev.trainyard.bench.http.QueueCountBenchmark;
import dev.trainyard.bench.http.QueueDepthBenchmark;
import dev.trainyard.bench.http.ReleaseComparison;
import dev.trainyard.bench.http.SignInFloodBenchmark;
import dev.trainyard.bench.http.SubmitFloorBenchmark;
import dev.trainyard.bench.http.TelemetryCostBenchmark;
import dev.trainyard.bench.http.VersionBytesBenchmark;
import dev.trainyard.bench.listing.ListingBenchmark;
import dev.trainyard.bench.merge.MergeLatencyBenchmark;
import dev.trainyard.bench.scheduler.SchedulerBenchmark;
import dev.trainyard.bench.webhooks.WebhookBenchmark;
import java.util.Arrays;

/**
 * The bench jar's entry point: {@code merge <args>} runs {@link MergeLatencyBenchmark}, {@code
 * webhooks <args>} {@link WebhookBenchmark}, {@code scheduler <args>} {@link SchedulerBenchmark},
 * {@code flaky <args>} {@link FlakyBenchmark}, {@code flapping} {@link FlappingSimulation}, {@code
 * classification <jar>} {@link ClassificationBenchmark}, {@code histories <args>} {@link
 * HistoryBenchmark}, {@code listing <args>} {@link ListingBenchmark}, {@code depth <args>} {@link
 * QueueDepthBenchmark}, {@code github <args>} {@link GithubRequestsBenchmark}, {@code dashboard
 * <args>} {@link DashboardBenchmark}, {@code telemetry <args>} {@link TelemetryCostBenchmark},
 * {@code floor <args>} {@link SubmitFloorBenchmark}, {@code signin <args>} {@link
 * SignInFloodBenchmark}, {@code version-bytes <args>} {@link VersionBytesBenchmark}, {@code against
 * <earlier jar> <jar> <args>} {@link ReleaseComparison} (each run in a process of its own, {@code
 * against-run}), {@code fleet <args>} {@link FleetBenchmark}, {@code queue-count <args>} {@link
 * QueueCountBenchmark}, {@code cluster <args>} {@link HttpBenchmark} on the chart's topology;
 * anything else runs {@link HttpBenchmark} with the arguments as given.
 */
public final class Bench {
  private Bench() {}

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("merge")) {
      MergeLatencyBenchmark.main(Arrays.copyOfRange(args, 1, args.length));
    } else if (args.length > 0 && args[0].equals("scheduler")) {
      SchedulerBenchmark.main(Arrays.copyOfRange(args, 1, args.length));
    } else if (args.length > 0 && args[0].equals("flaky")) {
      FlakyBenchmark.main(Arrays.copyOfRange(args, 1, args.length));
    } else if (args.length > 0 && args[0].equals("histories")) {
      HistoryBenchmark.main(Arrays.copyOfRange(args, 1, args.length));
    } else if (args.length > 0 && args[0].equals("classification")) {
      ClassificationBenchmark.main(Arrays.copyOfRange(args, 1, args.length));
    } else if (args.length > 0 && args[0].equals("flapping")) {
      FlappingSimulation.main(Arrays.copyOfRange(args, 1, args.length));
    } else if (args.length > 0 && args[0].equals("depth")) {
      QueueDepthBenchmark.main(Arrays.copyOfRange(args, 1, args.length));
    } else if (args.length > 0 && args[0].equals("listing")) {
      ListingBenchmark.main(Arrays.copyOfRange(args, 1, args.length));
    } else if (args.length > 0 && args[0].equals("cluster")) {
      HttpBenchmark.cluster(Arrays.copyOfRange(args, 1, args.length));
    } else if (args.length > 0 && args[0].equals("github")) {
      GithubRequestsBenchmark.main(Arrays.copyOfRange(args, 1, args.length));
    } else if (args.length > 0 && args[0].equals("dashboard")) {
      DashboardBenchmark.main(Arrays.copyOfRange(args, 1, args.length));
    } else if (args.length > 0 && args[0].equals("telemetry")) {
      TelemetryCostBenchmark.main(Arrays.copyOfRange(args, 1, args.length));
    } else if (args.length > 0 && args[0].equals("floor")) {
      SubmitFloorBenchmark.main(Arrays.copyOfRange(args, 1, args.length));
    } else if (args.length > 0 && args[0].equals("signin")) {
      SignInFloodBenchmark.main(Arrays.copyOfRange(args, 1, args.length));
    } else if (args.length > 0 && args[0].equals("version-bytes")) {
      VersionBytesBenchmark.main(Arrays.copyOfRange(args, 1, args.length));
    } else if (args.length > 0 && args[0].equals("against")) {
      ReleaseComparison.main(Arrays.copyOfRange(args, 1, args.length));
    } else if (args.length > 0 && args[0].equals("against-run")) {
      ReleaseComparison.runOnce(Arrays.copyOfRange(args, 1, args.length));
    } else if (args.length > 0 && args[0].equals("fleet")) {
      FleetBenchmark.main(Arrays.copyOfRange(args, 1, args.length));
    } else if (args.length > 0 && args[0].equals("queue-count")) {
      QueueCountBenchmark.main(Arrays.copyOfRange(args, 1, args.length));
    } else if (args.length > 0 && args[0].equals("webhooks")) {
      WebhookBenchmark.main(Arrays.copyOfRange(args, 1, args.length));
    } else {
      HttpBenchmark.main(args);
    }
  }
}

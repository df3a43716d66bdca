package dev.trainyard.bench.github;

import dev.trainyard.bench.github.GithubScenario.Configuration;
import dev.trainyard.bench.github.GithubScenario.Outcome;
import dev.trainyard.bench.stack.StandaloneProcess;
import dev.trainyard.worker.scm.github.OpenApiContract;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a merged PR costs in GitHub REST requests, and a test run in CI pipelines, on the standalone
 * stack against the GitHub simulator of queue-worker's tests (which checks every exchange against
 * GitHub's REST description and records it). {@link GithubScenario} runs PRs through a queue
 * without batching and with batches of 4, every test branch passing CI; each configuration runs
 * {@code runs} times, each time on a fresh simulator and standalone.
 *
 * <p>Arguments: {@code [standalone jar] [PRs] [runs per configuration]}. Run it from the
 * repository's root, after {@code .ci/github-fixtures} (GitHub's REST description and webhook
 * examples, under {@code .ci/.tools/github}).
 */
public final class GithubRequestsBenchmark {
  /** Where {@code .ci/github-fixtures} installs GitHub's descriptions, from the repository root. */
  private static final Path FIXTURES = Path.of(".ci/.tools/github/node_modules/@octokit");

  private static final List<Configuration> CONFIGURATIONS =
      List.of(
          new Configuration("batch 1", "\"batch\":false"),
          new Configuration("batch 4", "\"batch\":true,\"batchingMinSize\":4"),
          // GitHub's 405 "Base branch was modified" once after each merge, tried again
          new Configuration("squash, batch 1", "\"mergeMethod\":\"squash\",\"batch\":false", 1),
          new Configuration(
              "squash, batch 4",
              "\"mergeMethod\":\"squash\",\"batch\":true,\"batchingMinSize\":4",
              1));

  private GithubRequestsBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path jar = StandaloneProcess.jar(args);
    int prs = args.length > 1 ? Integer.parseInt(args[1]) : 20;
    int runs = args.length > 2 ? Integer.parseInt(args[2]) : 1;
    GithubScenario scenario =
        new GithubScenario(
            OpenApiContract.github(fixture("openapi/generated/api.github.com.json")),
            new WebhookExamples(fixture("webhooks-examples/api.github.com/index.json")));
    List<String> names = new ArrayList<>();
    List<Outcome> outcomes = new ArrayList<>();
    for (Configuration configuration : CONFIGURATIONS) {
      for (int run = 1; run <= runs; run++) {
        String name = configuration.name() + ", run " + run;
        System.out.printf(Locale.ROOT, "%n== %s: %s, %d PRs%n", jar, name, prs);
        Outcome outcome = scenario.play(jar, configuration, prs);
        printDetail(outcome);
        names.add(name);
        outcomes.add(outcome);
      }
    }
    printSummary(names, outcomes);
  }

  private static Path fixture(String relative) {
    Path path = FIXTURES.resolve(relative);
    if (!Files.exists(path)) {
      throw new IllegalStateException(
          path.toAbsolutePath()
              + " is missing: run .ci/github-fixtures, and the bench from the"
              + " repository's root");
    }
    return path;
  }

  private static void printDetail(Outcome o) {
    RequestTally t = o.tally();
    if (o.merged() < o.prs()) {
      System.out.printf(
          Locale.ROOT,
          "NOT ALL MERGED: %d of %d within the patience; see %s%n",
          o.merged(),
          o.prs(),
          o.log());
    }
    System.out.printf(
        Locale.ROOT,
        "%d of %d PRs merged in %.1f s (first submit to last merge on GitHub); the last request"
            + " came %.1f s after the last merge%n",
        o.merged(),
        o.prs(),
        o.wall().toMillis() / 1e3,
        o.lastRequest().toMillis() / 1e3);
    System.out.printf(
        Locale.ROOT,
        "GitHub REST requests: %d, %.1f per merged PR (%.1f without the 304s, which GitHub does"
            + " not count against the rate limit): %d reads (%d answered 304), %d writes%n",
        t.total(),
        perPr(t.total(), o),
        perPr(t.total() - t.notModified(), o),
        t.reads(),
        t.notModified(),
        t.writes());
    System.out.printf(
        Locale.ROOT,
        "CI pipelines: %d pushes to trainyard-merge/ branches over %d test runs, %.2f per run%n",
        o.pipelines(),
        o.testRuns(),
        o.testRuns() == 0 ? 0.0 : (double) o.pipelines() / o.testRuns());
    System.out.printf(Locale.ROOT, "%-20s %7s %7s %8s%n", "family", "reads", "writes", "per PR");
    for (Family family : Family.values()) {
      int all = t.reads(family) + t.writes(family);
      System.out.printf(
          Locale.ROOT,
          "%-20s %7d %7d %8.2f%n",
          family.label(),
          t.reads(family),
          t.writes(family),
          perPr(all, o));
    }
    System.out.println("requests by operation:");
    t.operations().forEach((op, n) -> System.out.printf(Locale.ROOT, "  %5d  %s%n", n, op));
    System.out.printf(
        Locale.ROOT,
        "of them before the first submit, while the PRs were opened: %d%n",
        o.setup().total());
    o.setup().operations().forEach((op, n) -> System.out.printf(Locale.ROOT, "  %5d  %s%n", n, op));
    System.out.println("answers of 400 and above:" + (t.refused().isEmpty() ? " none" : ""));
    t.refused().forEach((op, n) -> System.out.printf(Locale.ROOT, "  %5d  %s%n", n, op));
    System.out.printf(
        Locale.ROOT, "breaches of GitHub's REST description: %d%n", o.breaches().size());
    o.breaches().stream().distinct().limit(10).forEach(b -> System.out.println("  " + b));
  }

  /** The two tables bench/README.md shows, in its Markdown. */
  private static void printSummary(List<String> names, List<Outcome> outcomes) {
    System.out.printf(
        Locale.ROOT,
        "%n| configuration | merged | wall s | requests | per merged PR | without 304s |"
            + " reads (304) / writes | CI pipelines / test runs | per run |%n"
            + "|---|---:|---:|---:|---:|---:|---|---|---:|%n");
    for (int i = 0; i < outcomes.size(); i++) {
      Outcome o = outcomes.get(i);
      RequestTally t = o.tally();
      System.out.printf(
          Locale.ROOT,
          "| %s | %d/%d | %.1f | %d | **%.1f** | %.1f | %d (%d) / %d | %d / %d | **%.2f** |%n",
          names.get(i),
          o.merged(),
          o.prs(),
          o.wall().toMillis() / 1e3,
          t.total(),
          perPr(t.total(), o),
          perPr(t.total() - t.notModified(), o),
          t.reads(),
          t.notModified(),
          t.writes(),
          o.pipelines(),
          o.testRuns(),
          o.testRuns() == 0 ? 0.0 : (double) o.pipelines() / o.testRuns());
    }
    StringBuilder header = new StringBuilder("%n| per merged PR |");
    StringBuilder rule = new StringBuilder("|---|");
    for (Family family : Family.values()) {
      header.append(' ').append(family.label()).append(" |");
      rule.append("---:|");
    }
    System.out.printf(Locale.ROOT, header + "%n" + rule + "%n");
    for (int i = 0; i < outcomes.size(); i++) {
      Outcome o = outcomes.get(i);
      StringBuilder row = new StringBuilder("| ").append(names.get(i)).append(" |");
      for (Family family : Family.values()) {
        row.append(
            String.format(
                Locale.ROOT,
                " %.1f + %.1f |",
                perPr(o.tally().reads(family), o),
                perPr(o.tally().writes(family), o)));
      }
      System.out.println(row);
    }
    System.out.println("(each cell: reads + writes per merged PR)");
  }

  private static double perPr(int requests, Outcome o) {
    return o.merged() == 0 ? 0.0 : (double) requests / o.merged();
  }
}

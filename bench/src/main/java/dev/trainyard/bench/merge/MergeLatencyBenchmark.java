package dev.trainyard.bench.merge;

import dev.trainyard.bench.stack.ApiClient;
import dev.trainyard.bench.stack.StandaloneProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import org.eclipse.jgit.lib.ObjectId;

/**
 * How long trainyard takes from the last required status of a test run to the merge, on the
 * standalone stack, beside a bare JGit merge of the same commits measured in the same run.
 *
 * <p>For each PR in turn (a queue with concurrency 1, so every merge is measured alone): open it
 * (one new file on main), submit it, wait for its test branch, then time from sending {@code
 * /v1/ci/reportStatus success} until {@code main} points at the tested commit (read from the
 * repository on disk every 0.2 ms). The baseline merges the same PR head into the same main commit
 * in memory with JGit and moves a scratch ref, as the worker's own landing step would.
 *
 * <p>Arguments: {@code [standalone jar] [PRs] [warm-up PRs]}.
 */
public final class MergeLatencyBenchmark {
  private static final String REPO_JSON =
      "{\"host\":\"github.com\",\"owner\":\"acme\",\"name\":\"bench\"}";
  private static final String QUEUE = "\"repo\":" + REPO_JSON + ",\"targetBranch\":\"main\"";
  private static final Duration STEP_TIMEOUT = Duration.ofSeconds(60);

  private MergeLatencyBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path jar = StandaloneProcess.jar(args);
    int prs = args.length > 1 ? Integer.parseInt(args[1]) : 100;
    int warmUp = args.length > 2 ? Integer.parseInt(args[2]) : 10;
    try (StandaloneProcess standalone = StandaloneProcess.start(jar);
        BareRepository repo =
            new BareRepository(
                standalone.data().resolve("git/default/github.com/acme/bench.git"))) {
      ApiClient api = new ApiClient(standalone.baseUrl());
      api.post("/v1/createQueue", "{" + QUEUE + ",\"concurrency\":1}");
      // the status names the check that decides: the engine's time, not the plain-git settle time
      api.post("/v1/updateQueue", "{" + QUEUE + ",\"requiredStatuses\":[\"ci/test\"]}");
      long[] toMerge = new long[prs];
      long[] bareMerge = new long[prs];
      for (int i = 0; i < warmUp + prs; i++) {
        long number = i + 1;
        String file = "f" + number + ".txt";
        ObjectId head = repo.openPr(number, file);
        ObjectId mainBefore = repo.head("refs/heads/main");
        api.post("/v1/submitPullRequest", "{" + QUEUE + ",\"pr\":{\"number\":" + number + "}}");
        api.post("/v1/scm/git/notify", "{\"repo\":" + REPO_JSON + "}");
        ObjectId tested = awaitTestBranch(repo, file);

        long start = System.nanoTime();
        api.post(
            "/v1/ci/reportStatus",
            "{\"repo\":"
                + REPO_JSON
                + ",\"sha\":\""
                + tested.name()
                + "\",\"context\":\"ci/test\",\"state\":\"success\"}");
        awaitMain(repo, tested);
        long merged = System.nanoTime() - start;

        long bareStart = System.nanoTime();
        repo.mergeInMemory(mainBefore, head, "refs/heads/bench-baseline");
        long bare = System.nanoTime() - bareStart;
        repo.deleteRef("refs/heads/bench-baseline");
        if (i >= warmUp) {
          toMerge[i - warmUp] = merged;
          bareMerge[i - warmUp] = bare;
        }
      }
      print(prs, warmUp, toMerge, bareMerge);
    }
  }

  private static ObjectId awaitTestBranch(BareRepository repo, String file) throws Exception {
    long deadline = System.nanoTime() + STEP_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      for (Map.Entry<String, ObjectId> branch :
          repo.refs("refs/heads/trainyard-merge/").entrySet()) {
        if (repo.treeHas(branch.getValue(), file)) {
          return branch.getValue();
        }
      }
      Thread.sleep(1);
    }
    throw new IllegalStateException("no test branch with " + file + " within " + STEP_TIMEOUT);
  }

  private static void awaitMain(BareRepository repo, ObjectId tested) throws java.io.IOException {
    long deadline = System.nanoTime() + STEP_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (tested.equals(repo.head("refs/heads/main"))) {
        return;
      }
      java.util.concurrent.locks.LockSupport.parkNanos(200_000);
    }
    throw new IllegalStateException("main did not reach " + tested.name() + " in " + STEP_TIMEOUT);
  }

  private static void print(int prs, int warmUp, long[] toMerge, long[] bareMerge) {
    Arrays.sort(toMerge);
    Arrays.sort(bareMerge);
    System.out.printf(
        Locale.ROOT,
        "%nstatus → merge on the standalone stack, %d PRs after %d warm-up, concurrency 1%n",
        prs,
        warmUp);
    System.out.printf(Locale.ROOT, "%-42s %10s %10s %10s%n", "", "p50 ms", "p99 ms", "max ms");
    row("last required status → main moved", toMerge);
    row("bare JGit merge of the same commits", bareMerge);
    System.out.printf(
        Locale.ROOT,
        "ratio p50: %.1f×, p99: %.1f×%n",
        (double) percentile(toMerge, 50) / percentile(bareMerge, 50),
        (double) percentile(toMerge, 99) / percentile(bareMerge, 99));
  }

  private static void row(String name, long[] sorted) {
    System.out.printf(
        Locale.ROOT,
        "%-42s %10.2f %10.2f %10.2f%n",
        name,
        percentile(sorted, 50) / 1e6,
        percentile(sorted, 99) / 1e6,
        sorted[sorted.length - 1] / 1e6);
  }

  private static long percentile(long[] sorted, int p) {
    int index = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
  }
}

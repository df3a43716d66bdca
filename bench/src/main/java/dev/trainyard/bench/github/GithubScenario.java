package dev.trainyard.bench.github;

import dev.trainyard.bench.stack.ApiClient;
import dev.trainyard.bench.stack.StandaloneProcess;
import dev.trainyard.worker.scm.git.BareRepo;
import dev.trainyard.worker.scm.github.GithubSimulator;
import dev.trainyard.worker.scm.github.OpenApiContract;
import dev.trainyard.worker.scm.github.SimulatedRepository;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.eclipse.jgit.lib.ObjectId;

/**
 * One run of the scenario, on a fresh GitHub simulator in this JVM and a fresh standalone started
 * as a child process against it. The App is installed on {@code acme/bench}, whose {@code main}
 * requires check {@value SimulatedCi#CHECK} (classic branch protection; the queue leaves {@code
 * requiredStatuses} unset, as a GitHub user would), and the installation is bound to the bootstrap
 * organization. PRs are opened, each one commit on top of {@code main}, the queue is created with
 * the configuration's settings, and every PR is submitted through the API at once. {@link
 * SimulatedCi} passes every push to a test branch. The run ends when GitHub shows every PR merged
 * and then no request reached it for {@link #QUIET}: whatever trainyard writes after the last merge
 * (check runs, branch deletions) is part of the cost.
 */
final class GithubScenario {
  private static final long INSTALLATION = 5150;
  private static final String ORG = "default"; // the standalone's bootstrap organization
  private static final String OWNER = "acme";
  private static final String NAME = "bench";
  private static final String QUEUE =
      "\"repo\":{\"host\":\"github.com\",\"owner\":\""
          + OWNER
          + "\",\"name\":\""
          + NAME
          + "\"},\"targetBranch\":\"main\"";
  private static final String WEBHOOK_PATH = "/v1/scm/github/webhook";

  /**
   * Longer than the worker's PR poll (5 s), so a run is not cut short between two rounds; shorter
   * than the check-run debounce (1 min), which writes nothing once every PR is concluded.
   */
  static final Duration QUIET = Duration.ofSeconds(20);

  private static final Duration PATIENCE = Duration.ofMinutes(15);

  /** A queue's settings for {@code /v1/updateQueue}, and what the tables call them. */
  /**
   * A queue's settings beside the defaults, and how many merge calls GitHub answers 405 "Base
   * branch was modified" after each merge of a PR ({@code races}: squash and rebase only).
   */
  record Configuration(String name, String settings, int races) {
    Configuration(String name, String settings) {
      this(name, settings, 0);
    }
  }

  /**
   * What a run cost: {@code wall} from the first submit to the last merge on GitHub; {@code tally}
   * every request from the standalone's start until the quiet, {@code setup} those of them before
   * the first submit (while the PRs were opened); {@code lastRequest} how long after the last merge
   * the last request came; {@code breaches} the exchanges GitHub's REST description refuses.
   */
  record Outcome(
      int prs,
      int merged,
      Duration wall,
      RequestTally tally,
      RequestTally setup,
      Duration lastRequest,
      int pipelines,
      int testRuns,
      List<String> breaches,
      Path log) {}

  private final OpenApiContract contract;
  private final WebhookExamples examples;

  GithubScenario(OpenApiContract contract, WebhookExamples examples) {
    this.contract = contract;
    this.examples = examples;
  }

  Outcome play(Path jar, Configuration configuration, int prs) throws Exception {
    String secret = "bench-webhook-" + UUID.randomUUID();
    String admin = "bench-admin-" + UUID.randomUUID();
    try (GithubSimulator github = new GithubSimulator(contract, InstantSource.system());
        StandaloneProcess standalone =
            StandaloneProcess.start(jar, List.of(), environment(github, secret, admin))) {
      github
          .webhooks()
          .deliverTo(URI.create(standalone.baseUrl() + WEBHOOK_PATH), secret, examples);
      SimulatedRepository repo = github.install(INSTALLATION, OWNER, NAME);
      new ApiClient(standalone.baseUrl(), admin)
          .post(
              "/admin/v1/bindGithubInstallation",
              "{\"org\":\"" + ORG + "\",\"installationId\":" + INSTALLATION + "}");
      repo.push("main", BareRepo.files("README", "hello"), "Initial commit");
      repo.protect("main", SimulatedCi.CHECK);
      repo.raceAfterEachMerge(configuration.races());
      try (SimulatedCi ci = new SimulatedCi(github, repo)) {
        ApiClient api = new ApiClient(standalone.baseUrl());
        api.post("/v1/createQueue", "{" + QUEUE + "}");
        api.post("/v1/updateQueue", "{" + QUEUE + "," + configuration.settings() + "}");
        List<Long> numbers = open(repo, prs);
        RequestTally setup = tally(github);

        long start = System.nanoTime();
        for (long number : numbers) {
          api.post("/v1/submitPullRequest", "{" + QUEUE + ",\"pr\":{\"number\":" + number + "}}");
        }
        int merged = awaitMerged(repo, numbers);
        Duration wall = Duration.ofNanos(System.nanoTime() - start);
        Duration lastRequest = awaitQuiet(github);

        return new Outcome(
            prs,
            merged,
            wall,
            tally(github),
            setup,
            lastRequest,
            ci.pipelines(),
            ci.testRuns(),
            github.problems(),
            standalone.data().resolve(StandaloneProcess.LOG));
      }
    }
  }

  /** Every request so far, each named by GitHub's documented operation. */
  private RequestTally tally(GithubSimulator github) {
    return RequestTally.of(
        List.copyOf(github.calls()),
        List.copyOf(github.answered()),
        (method, path) -> contract.operation(method, path).orElse(path));
  }

  private static Map<String, String> environment(
      GithubSimulator github, String secret, String admin) {
    return Map.of(
        "TRAINYARD_GITHUB_APP_ID", Long.toString(GithubSimulator.APP_ID),
        "TRAINYARD_GITHUB_PRIVATE_KEY", github.privateKeyPem(),
        "TRAINYARD_GITHUB_API_URL", github.api().toString(),
        "TRAINYARD_GITHUB_WEBHOOK_SECRET", secret,
        "TRAINYARD_ADMIN_TOKEN", admin);
  }

  /** Opens {@code prs} PRs, each adding its own file in one commit on top of {@code main}. */
  private static List<Long> open(SimulatedRepository repo, int prs) throws Exception {
    ObjectId main = repo.git().head("main");
    List<Long> numbers = new ArrayList<>();
    for (int i = 1; i <= prs; i++) {
      String branch = "change-" + i;
      repo.git().setRef("refs/heads/" + branch, main); // branched from main, as a developer does
      repo.push(branch, BareRepo.files("f" + i + ".txt", "change " + i), "Add f" + i + ".txt");
      numbers.add(repo.openPullRequest(branch, "main", "Add f" + i + ".txt", "alice"));
    }
    return numbers;
  }

  /** Waits until GitHub shows every PR merged, or {@link #PATIENCE} ends; answers how many. */
  private static int awaitMerged(SimulatedRepository repo, List<Long> numbers)
      throws InterruptedException {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    while (true) {
      int merged = merged(repo, numbers);
      if (merged == numbers.size() || System.nanoTime() > deadline) {
        return merged;
      }
      Thread.sleep(50);
    }
  }

  private static int merged(SimulatedRepository repo, List<Long> numbers) {
    return (int)
        numbers.stream()
            .filter(n -> repo.pull(n).map(SimulatedRepository.PullRequest::merged).orElse(false))
            .count();
  }

  /**
   * Waits until no request reaches GitHub for {@link #QUIET} (at most {@link #PATIENCE}); answers
   * how long after the call the last request came.
   */
  private static Duration awaitQuiet(GithubSimulator github) throws InterruptedException {
    long start = System.nanoTime();
    long lastChange = start;
    int seen = github.calls().size();
    while (System.nanoTime() - lastChange < QUIET.toNanos()
        && System.nanoTime() - start < PATIENCE.toNanos()) {
      Thread.sleep(100);
      int now = github.calls().size();
      if (now != seen) {
        seen = now;
        lastChange = System.nanoTime();
      }
    }
    return Duration.ofNanos(lastChange - start);
  }
}

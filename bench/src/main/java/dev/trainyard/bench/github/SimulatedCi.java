package dev.trainyard.bench.github;

import dev.trainyard.common.json.Json;
import dev.trainyard.common.queue.TestBranches;
import dev.trainyard.worker.scm.github.GithubSimulator;
import dev.trainyard.worker.scm.github.SimulatedRepository;
import dev.trainyard.worker.scm.github.Webhooks;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.JsonNode;

/**
 * CI whose workflow builds {@code trainyard-merge/**}, as the README asks: every push to such a
 * branch starts one pipeline, which passes at once with check run {@value #CHECK} on the pushed
 * commit. Pushes to {@code trainyard-scratch/**} and deletions start nothing. It reads the
 * simulator's {@code push} deliveries rather than the refs, so two pushes to one branch between two
 * looks are two pipelines, as they are on GitHub.
 */
final class SimulatedCi implements AutoCloseable {
  static final String CHECK = "ci";
  private static final String WATCHED = "refs/heads/" + TestBranches.PREFIX;

  private final GithubSimulator github;
  private final SimulatedRepository repo;
  private final AtomicInteger pipelines = new AtomicInteger();
  private final Set<String> branches = ConcurrentHashMap.newKeySet();
  private final Thread thread;
  private volatile boolean running = true;
  private int read;

  SimulatedCi(GithubSimulator github, SimulatedRepository repo) {
    this.github = github;
    this.repo = repo;
    this.thread = new Thread(this::loop, "simulated-ci");
    thread.setDaemon(true);
    thread.start();
  }

  /** Pushes to a watched branch so far: the pipelines CI ran. */
  int pipelines() {
    return pipelines.get();
  }

  /** Watched branches pushed to so far: trainyard names each test run's branch after the run. */
  int testRuns() {
    return branches.size();
  }

  private void loop() {
    while (running) {
      List<Webhooks.Delivery> deliveries = github.webhooks().deliveries();
      for (; read < deliveries.size(); read++) {
        Webhooks.Delivery delivery = deliveries.get(read);
        if (delivery.event().equals("push")) {
          pushed(Json.mapper().readTree(delivery.body()));
        }
      }
      try {
        Thread.sleep(20); // a CI system's own polling; its reaction time is not what is measured
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private void pushed(JsonNode push) {
    String ref = push.path("ref").asString("");
    if (ref.startsWith(WATCHED) && !push.path("deleted").asBoolean(false)) {
      pipelines.incrementAndGet();
      branches.add(ref);
      repo.completeCheck(push.path("after").asString(), CHECK, "success");
    }
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    thread.interrupt();
    thread.join();
  }
}

package dev.trainyard.standalone.support;

import dev.trainyard.worker.scm.git.BareRepo;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.eclipse.jgit.lib.ObjectId;

/**
 * A CI system for the tests: watches the test branches of a bare repository and reports {@code
 * ci/test} through {@code /v1/ci/reportStatus} for each new head, red when the tested tree holds a
 * file named {@code BROKEN} (or by a rule the test sets). It remembers the most test branches it
 * saw at once, can be held (it reports nothing), and keeps retrying a report the service did not
 * take.
 */
public final class CiSimulator implements AutoCloseable {
  public static final String BROKEN = "BROKEN";
  private static final String PREFIX = "refs/heads/trainyard-merge/";
  private final BareRepo repo;
  private final Api api;
  private final String repoJson;
  private final Set<String> reported = ConcurrentHashMap.newKeySet();
  private final Set<String> seen = ConcurrentHashMap.newKeySet();
  private volatile Predicate<Map<String, String>> red = tree -> tree.containsKey(BROKEN);
  private volatile Step beforeReport = (sha, tree, failed) -> {};

  /** A step of CI's job before it reports the status of a tested commit. */
  @FunctionalInterface
  public interface Step {
    void run(String sha, Map<String, String> tree, boolean red) throws java.io.IOException;
  }

  private final AtomicInteger maxTesting = new AtomicInteger();
  private final AtomicBoolean held = new AtomicBoolean();
  private final AtomicBoolean running = new AtomicBoolean(true);
  private final Thread thread;

  public CiSimulator(BareRepo repo, Api api, String repoName) {
    this.repo = repo;
    this.api = api;
    this.repoJson = "{\"host\":\"github.com\",\"owner\":\"acme\",\"name\":\"" + repoName + "\"}";
    this.thread = new Thread(this::loop, "ci-simulator");
    thread.setDaemon(true);
    thread.start();
  }

  public void hold(boolean hold) {
    held.set(hold);
  }

  /**
   * Which tested trees CI reports red (default: those holding {@code BROKEN}); a test simulates a
   * flaky suite by making a tree red that a larger tree holding the same change is not.
   */
  public void redWhen(Predicate<Map<String, String>> rule) {
    red = rule;
  }

  /**
   * What CI does before it reports a tested commit ({@code sha}, its tree, whether it is red): a
   * test uploads the run's test results, as a CI job's step does before the job ends.
   */
  public void beforeReporting(Step step) {
    beforeReport = step;
  }

  /**
   * Reports now (held or not) every test branch whose tested tree matches {@code which} and that
   * was not reported yet: a test decides which lane passes first. Answers how many it reported.
   */
  public int reportNow(Predicate<Map<String, String>> which) throws java.io.IOException {
    int count = 0;
    for (ObjectId head : testBranches().values()) {
      if (!reported.contains(head.name()) && which.test(repo.tree(head)) && report(head)) {
        reported.add(head.name());
        count++;
      }
    }
    return count;
  }

  /** How many test branches CI has seen: every test run, bisection runs included. */
  public int testRunsSeen() {
    return seen.size();
  }

  /**
   * The most test branches CI was testing at once: present and not yet reported on. A concluded
   * run's branch may outlive it briefly (its deletion and the next run's build are effects run side
   * by side), but it no longer takes a CI job, which is what a queue's concurrency bounds.
   */
  public int maxTestedAtOnce() {
    return maxTesting.get();
  }

  /** The test branches that exist now, name (without refs/heads/) to head. */
  public Map<String, ObjectId> testBranches() {
    try {
      Map<String, ObjectId> refs = repo.refs(PREFIX);
      Map<String, ObjectId> out = new java.util.TreeMap<>();
      refs.forEach((name, id) -> out.put(name.substring("refs/heads/".length()), id));
      return out;
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private void loop() {
    while (running.get()) {
      try {
        Map<String, ObjectId> branches = testBranches();
        long testing = branches.values().stream().filter(h -> !reported.contains(h.name())).count();
        maxTesting.accumulateAndGet((int) testing, Math::max);
        seen.addAll(branches.keySet());
        if (!held.get()) {
          for (ObjectId head : branches.values()) {
            if (!reported.contains(head.name()) && report(head)) {
              reported.add(head.name());
            }
          }
        }
        Thread.sleep(50); // a poll interval of this fake CI, not a wait for the system under test
      } catch (InterruptedException e) {
        return;
      } catch (RuntimeException | java.io.IOException e) {
        // the service may be restarting: the next round retries
      }
    }
  }

  private boolean report(ObjectId head) throws java.io.IOException {
    Map<String, String> tree = repo.tree(head);
    boolean failed = red.test(tree);
    beforeReport.run(head.name(), tree, failed);
    String body =
        "{\"repo\":"
            + repoJson
            + ",\"sha\":\""
            + head.name()
            + "\",\"context\":\"ci/test\",\"state\":\""
            + (failed ? "failure" : "success")
            + "\",\"url\":\"https://ci.example/"
            + head.name()
            + "\"}";
    return api.post("/v1/ci/reportStatus", body).status() == 200;
  }

  @Override
  public void close() {
    running.set(false);
    thread.interrupt();
  }
}

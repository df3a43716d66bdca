package dev.trainyard.standalone.queue;

import static dev.trainyard.standalone.support.QueueSteps.awaitState;
import static dev.trainyard.standalone.support.QueueSteps.create;
import static dev.trainyard.standalone.support.QueueSteps.submit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.standalone.flaky.Multipart;
import dev.trainyard.standalone.flaky.Reports;
import dev.trainyard.standalone.support.Api;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * Flake-aware failures end to end (SCHEDULING.md "Flake-aware failures"), on real git with the real
 * flaky-tests service: CI uploads each run's JUnit results before it reports the run's status. A PR
 * whose run fails only on a test the service knows as flaky is tested once more ({@code
 * TESTS_RESTARTED_FLAKY}) and merges; a PR with a real failure fails as before.
 */
class FlakeAwareIT extends QueueScenario {
  private static final String SUITE = "com.acme.CheckoutTest";

  /** CI's upload of the results of {@code sha}: each entry {@code name:P|F|R} of the suite. */
  private void upload(String sha, String branch, List<String> cases) {
    upload(sha, branch, null, cases);
  }

  /** The same, from the CI of pull request {@code pr} (null: not a pull request's). */
  private void upload(String sha, String branch, Long pr, List<String> cases) {
    Api.Response r =
        Multipart.upload(name, sha, branch, pr)
            .file("file", "TEST-" + SUITE + ".xml", Reports.surefire(SUITE, cases))
            .uploadWith(api);
    assertThat(r.status()).as(r.body()).isEqualTo(200);
  }

  @Test
  void aRunRedOnlyOnAFlakyTestIsRunAgainAndARealFailureStillFails() throws Exception {
    create(api, name, 1);
    // on the target branch, `paysTwice` passed only when Surefire retried it: known flaky
    upload("m0", "main", List.of("paysTwice:R", "totals:P"));
    // CI: a tree with FLAKY fails `paysTwice` the first time it is tested, a tree with BROKEN
    // fails `totals` every time; the results are uploaded before the status is reported
    Set<String> flakedOnce = ConcurrentHashMap.newKeySet();
    ci.redWhen(
        tree ->
            tree.containsKey("BROKEN")
                || (tree.containsKey("FLAKY") && flakedOnce.add(tree.get("FLAKY"))));
    ci.beforeReporting(
        (sha, tree, red) -> {
          boolean broken = tree.containsKey("BROKEN");
          upload(
              sha,
              "trainyard-merge/main",
              List.of(
                  "paysTwice:" + (red && !broken ? "F" : "P"), "totals:" + (broken ? "F" : "P")));
        });

    git.openPr(1, "Add a flaky path", "ann", "FLAKY", "checkout\n");
    submit(api, name, 1);
    awaitState(api, name, 1, "merged");

    git.openPr(2, "Break the totals", "bob", "BROKEN", "totals\n");
    submit(api, name, 2);
    awaitState(api, name, 2, "failed");

    assertThat(git.mainSubjects())
        .containsExactly("Merge pull request #1: Add a flaky path", "Initial commit");
    assertThat(
            events().stream()
                .filter(e -> "TESTS_RESTARTED_FLAKY".equals(text(e, "queued_reason")))
                .map(e -> e.get("pr_number").asLong()))
        .as("only PR 1 was tested again, once")
        .containsExactly(1L);
    assertThat(ci.testRunsSeen()).as("PR 1 twice, PR 2 once").isEqualTo(3);
  }

  /**
   * Issue 49, item 6: a PR that makes a test fail half the time marks it flaky through its own
   * re-run. Before, its queue run red on that test was excused, tested again and landed about half
   * the time; evidence from the PR's own runs never excuses its failure.
   */
  @Test
  void aPullRequestsOwnReRunNeverExcusesItsFailure() throws Exception {
    create(api, name, 1);
    // the PR's own CI: its head failed paysTwice and the re-run passed, flaky on its evidence alone
    upload("racy-head", "racy", 3L, List.of("paysTwice:F", "totals:P"));
    upload("racy-head", "racy", 3L, List.of("paysTwice:P", "totals:P"));
    Set<String> flakedOnce = ConcurrentHashMap.newKeySet();
    ci.redWhen(tree -> tree.containsKey("RACY") && flakedOnce.add(tree.get("RACY")));
    ci.beforeReporting(
        (sha, tree, red) ->
            upload(
                sha,
                "trainyard-merge/main",
                List.of("paysTwice:" + (red ? "F" : "P"), "totals:P")));

    git.openPr(3, "Make payments racy", "cid", "RACY", "race\n");
    submit(api, name, 3);
    awaitState(api, name, 3, "failed");

    assertThat(
            events().stream().filter(e -> "TESTS_RESTARTED_FLAKY".equals(text(e, "queued_reason"))))
        .as("not tested again on its own evidence")
        .isEmpty();
    assertThat(ci.testRunsSeen()).isEqualTo(1);
  }
}

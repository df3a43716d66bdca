package dev.trainyard.standalone.queue;

import static dev.trainyard.standalone.support.QueueSteps.awaitState;
import static dev.trainyard.standalone.support.QueueSteps.create;
import static dev.trainyard.standalone.support.QueueSteps.submit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.PromText;
import dev.trainyard.standalone.support.QueueSteps;
import dev.trainyard.standalone.telemetry.Promtool;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** getMergeQueueMetrics (API.md §4) over real HTTP, after real merges through git and CI. */
class MetricsIT extends QueueScenario {
  private static final List<String> HISTOGRAMS =
      List.of(
          "mq_pr_wait_duration_1h_seconds",
          "mq_pr_test_duration_1h_seconds",
          "mq_pr_time_in_queue_1h_seconds");
  private static final List<String> LES =
      List.of("60", "300", "600", "900", "1800", "3600", "5400", "7200", "+Inf");

  private Api.Response metrics(Api client, String query) {
    return client.send(client.request("/v1/getMergeQueueMetrics" + query).GET());
  }

  /** The labels of one lane of this test's queue. */
  private Map<String, String> lane(String queueType) {
    return Map.of("repo", "acme/" + name, "branch", "main", "queue_type", queueType);
  }

  /**
   * The repository's metrics once {@code ready} holds; figures follow a change within 5 s (API.md
   * §4).
   */
  private PromText awaitMetrics(Predicate<PromText> ready) {
    return Awaitility.await()
        .atMost(Duration.ofSeconds(5))
        .until(() -> PromText.parse(metrics(api, repoQuery()).body()), ready);
  }

  private String repoQuery() {
    return "?repo=acme/" + name + "&repoHost=github.com";
  }

  @Test
  void aMergedPullRequestShowsInBothLanesOfItsQueue() throws Exception {
    create(api, name, 2);
    git.openPr(1, "Add a", "ann", "a.txt", "a\n");
    submit(api, name, 1);
    awaitState(api, name, 1, "merged");

    Map<String, String> main = lane("main");
    Map<String, String> bisection = lane("bisection");
    PromText text = awaitMetrics(t -> t.value("mq_pr_test_duration_1h_seconds_count", main) == 1);
    Api.Response response = metrics(api, repoQuery());
    assertThat(response.status()).isEqualTo(200);
    assertThat(response.contentType()).isEqualTo("text/plain; version=0.0.4; charset=utf-8");
    assertPromtoolAccepts(response.body());

    assertThat(text.types)
        .containsEntry("mq_depth_current", "gauge")
        .containsEntry("mq_awaiting_mergeability", "gauge")
        .containsEntry("mq_testing_slots_active", "gauge")
        .containsEntry("mq_pr_conclusions_1h_total", "gauge")
        .containsEntry("mq_pr_restarts_1h_total", "gauge")
        .containsEntry("mq_pr_wait_duration_1h_seconds", "histogram")
        .containsEntry("mq_pr_test_duration_1h_seconds", "histogram")
        .containsEntry("mq_pr_time_in_queue_1h_seconds", "histogram");
    assertThat(text.help.keySet()).containsExactlyElementsOf(text.types.keySet());
    assertThat(text.samples)
        .allSatisfy(
            s ->
                assertThat(s.labels())
                    .containsEntry("repo", "acme/" + name)
                    .containsEntry("repo_host", "github.com")
                    .containsEntry("branch", "main")
                    .containsKey("queue_type"));

    for (Map<String, String> lane : List.of(main, bisection)) {
      assertThat(text.value("mq_depth_current", lane)).isZero();
      assertThat(text.value("mq_awaiting_mergeability", lane)).isZero();
      assertThat(text.value("mq_testing_slots_active", lane)).isZero();
      assertThat(text.value("mq_pr_restarts_1h_total", lane)).isZero();
      for (String histogram : HISTOGRAMS) {
        assertConsistent(text, histogram, lane);
      }
    }
    assertThat(text.value("mq_pr_conclusions_1h_total", with(main, "conclusion", "merged")))
        .isEqualTo(1);
    assertThat(text.value("mq_pr_conclusions_1h_total", with(main, "conclusion", "failed")))
        .isZero();
    assertThat(text.value("mq_pr_conclusions_1h_total", with(main, "conclusion", "cancelled")))
        .isZero();
    assertThat(text.value("mq_pr_conclusions_1h_total", with(bisection, "conclusion", "merged")))
        .isZero();
    // the PR waited for a run, was tested once and merged, all within this test
    for (String histogram : HISTOGRAMS) {
      assertThat(text.value(histogram + "_count", main)).as(histogram).isEqualTo(1);
      assertThat(text.value(histogram + "_sum", main))
          .as(histogram)
          .isLessThan(QueueSteps.PATIENCE.toSeconds());
      assertThat(text.value(histogram + "_count", bisection)).as(histogram).isZero();
    }
    assertThat(text.value("mq_pr_time_in_queue_1h_seconds_sum", main))
        .isGreaterThan(0)
        .isGreaterThanOrEqualTo(text.value("mq_pr_wait_duration_1h_seconds_sum", main));

    // without repo: every queue of the organization, this one among them
    PromText all = PromText.parse(metrics(api, "").body());
    assertThat(all.value("mq_pr_conclusions_1h_total", with(main, "conclusion", "merged")))
        .isEqualTo(1);
  }

  @Test
  void aPullRequestUnderTestShowsInTheGaugesAndEveryLaneHasAllItsSeries() throws Exception {
    pullRequestUnderTest(2);

    Map<String, String> main = lane("main");
    PromText text = awaitMetrics(t -> t.value("mq_testing_slots_active", main) == 1);
    assertThat(text.value("mq_depth_current", main)).isEqualTo(1);
    assertThat(text.value("mq_pr_conclusions_1h_total", with(main, "conclusion", "merged")))
        .isZero();
    // 3 gauges + 3 conclusions + restarts + 3 histograms of 11 samples, for each lane
    assertThat(text.samples).hasSize(2 * (7 + 3 * 11));
    for (String histogram : HISTOGRAMS) {
      assertConsistent(text, histogram, main);
    }
    assertPromtoolAccepts(metrics(api, repoQuery()).body());
  }

  @Test
  void aRestartedTestRunCountsAsARestartOfItsLane() throws Exception {
    pullRequestUnderTest(1);
    int runsBefore = ci.testRunsSeen();

    Api.Response restart = api.post("/v1/restartTestsOnPullRequest", Api.prBody(name, 1));
    assertThat(restart.status()).as(restart.body()).isEqualTo(200);
    Awaitility.await().atMost(QueueSteps.PATIENCE).until(() -> ci.testRunsSeen() > runsBefore);
    ci.hold(false);
    awaitState(api, name, 1, "merged");

    Map<String, String> main = lane("main");
    Map<String, String> bisection = lane("bisection");
    PromText text =
        awaitMetrics(
            t -> t.value("mq_pr_conclusions_1h_total", with(main, "conclusion", "merged")) == 1);
    assertThat(text.value("mq_pr_restarts_1h_total", main)).isEqualTo(1);
    assertThat(text.value("mq_pr_restarts_1h_total", bisection)).isZero();
    // the cancelled first run says nothing about test durations: only the run that passed counts
    assertThat(text.value("mq_pr_test_duration_1h_seconds_count", main)).isEqualTo(1);
  }

  @Test
  void badQueriesUnknownRepositoriesOtherTenantsAndMissingTokens() {
    create(api, name, 1);

    Api.Response noHost = metrics(api, "?repo=acme/" + name);
    assertThat(noHost.status()).isEqualTo(400);
    assertThat(noHost.contentType()).isEqualTo("text/plain;charset=UTF-8");
    assertThat(noHost.body()).contains("repoHost").hasLineCount(1);
    Api.Response malformed = metrics(api, "?repo=" + name + "&repoHost=github.com");
    assertThat(malformed.status()).isEqualTo(400);
    assertThat(malformed.body()).contains("repo must have the form owner/name");
    Api.Response controlCharacter = metrics(api, "?repo=acme/" + name + "&repoHost=git%01hub.com");
    assertThat(controlCharacter.status()).isEqualTo(400);
    assertThat(controlCharacter.body())
        .startsWith("repoHost must be a host name or address")
        .contains("(letters, digits, '.', '-', ':', '[', ']')");
    Api.Response tooLong = metrics(api, "?repo=" + "a".repeat(256) + "/x&repoHost=github.com");
    assertThat(tooLong.status()).isEqualTo(400);
    assertThat(tooLong.body()).startsWith("repo must be").contains("at most 255 characters");

    Api.Response unknown = metrics(api, "?repo=acme/no-such-repo-" + name + "&repoHost=github.com");
    assertThat(unknown.status()).isEqualTo(200);
    assertThat(PromText.parse(unknown.body()).samples).isEmpty();
    Api.Response otherHost = metrics(api, "?repo=acme/" + name + "&repoHost=gitlab.com");
    assertThat(PromText.parse(otherHost.body()).samples).isEmpty();

    Api other = stack.otherOrganization().api();
    Api.Response foreign = metrics(other, repoQuery());
    assertThat(foreign.status()).isEqualTo(200);
    assertThat(PromText.parse(foreign.body()).samples).isEmpty();
    assertThat(PromText.parse(metrics(other, "").body()).samples).isEmpty();

    Api.Response anonymous = metrics(api.withToken(null), repoQuery());
    assertThat(anonymous.status()).isEqualTo(401);
    assertThat(anonymous.body()).contains("x-api-token");
    assertThat(metrics(api.withToken("wrong"), "").status()).isEqualTo(401);
  }

  /** Buckets never decrease, and {@code _count} is the {@code +Inf} bucket. */
  private static void assertConsistent(PromText text, String histogram, Map<String, String> lane) {
    double previous = 0;
    for (String le : LES) {
      double bucket = text.value(histogram + "_bucket", with(lane, "le", le));
      assertThat(bucket).as(histogram + " le=" + le).isGreaterThanOrEqualTo(previous);
      previous = bucket;
    }
    assertThat(text.value(histogram + "_count", lane)).isEqualTo(previous);
    if (previous == 0) {
      assertThat(text.value(histogram + "_sum", lane)).isZero();
    }
  }

  private static Map<String, String> with(Map<String, String> labels, String name, String value) {
    Map<String, String> out = new java.util.HashMap<>(labels);
    out.put(name, value);
    return out;
  }

  /**
   * {@code promtool check metrics} exits 0 (clean) or 3 (lint notes only) where it is installed.
   */
  private static void assertPromtoolAccepts(String exposition) throws Exception {
    if (Promtool.available()) {
      Promtool.Verdict verdict = Promtool.checkMetrics(exposition);
      assertThat(verdict.exitCode()).as(verdict.output()).isIn(0, 3);
    }
  }
}

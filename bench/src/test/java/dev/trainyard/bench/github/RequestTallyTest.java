package dev.trainyard.bench.github;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RequestTallyTest {
  /** Every operation the GitHub adapter calls, by GitHub's template, in the family it counts in. */
  @ParameterizedTest
  @CsvSource({
    "/app/installations/{installation_id}/access_tokens, TOKEN",
    "/repos/{owner}/{repo}/installation, TOKEN",
    "/repos/{owner}/{repo}/check-runs, CHECK_RUNS",
    "/repos/{owner}/{repo}/check-runs/{check_run_id}, CHECK_RUNS",
    "/repos/{owner}/{repo}/commits/{ref}/check-runs, CHECK_RUNS",
    "/repos/{owner}/{repo}/commits/{ref}/status, STATUSES",
    "/repos/{owner}/{repo}/statuses/{sha}, STATUSES",
    "/repos/{owner}/{repo}/git/ref/{ref}, REFS",
    "/repos/{owner}/{repo}/git/refs, REFS",
    "/repos/{owner}/{repo}/git/refs/{ref}, REFS",
    "/repos/{owner}/{repo}/git/commits/{commit_sha}, REFS",
    "/repos/{owner}/{repo}/merges, MERGES",
    "/repos/{owner}/{repo}/pulls/{pull_number}/merge, MERGES",
    "/repos/{owner}/{repo}/pulls, PULLS",
    "/repos/{owner}/{repo}/pulls/{pull_number}, PULLS",
    "/repos/{owner}/{repo}/issues/{issue_number}/comments, COMMENTS",
    "/repos/{owner}/{repo}/labels, LABELS",
    "/repos/{owner}/{repo}/issues/{issue_number}/labels, LABELS",
    "/repos/{owner}/{repo}/issues/{issue_number}/labels/{name}, LABELS",
    "/repos/{owner}/{repo}/branches/{branch}, REQUIRED_CHECKS",
    "/repos/{owner}/{repo}/rules/branches/{branch}, REQUIRED_CHECKS",
    "/repos/{owner}/{repo}/collaborators/{username}/permission, OTHER",
    "/repos/{owner}/{repo}, OTHER",
  })
  void eachOperationCountsInItsFamily(String template, Family family) {
    assertThat(Family.of(template)).isEqualTo(family);
  }

  @ParameterizedTest
  @CsvSource({
    // a test branch's ref path names the prefix trainyard-merge/: still a ref, not a merge
    "/repos/acme/bench/git/refs/heads/trainyard-merge/main/run-1, REFS",
    "/repos/acme/bench/pulls/7/merge, MERGES",
    "/repos/acme/bench/commits/0123abcd/check-runs?check_name=trainyard, CHECK_RUNS",
  })
  void aRawPathCountsAsItsTemplateWould(String path, Family family) {
    assertThat(Family.of(path)).isEqualTo(family);
  }

  @Test
  void readsWritesConditionalAnswersAndRefusalsAreCountedApart() {
    List<String> calls =
        List.of(
            "GET /repos/acme/bench/pulls/1",
            "GET /repos/acme/bench/pulls/1",
            "PATCH /repos/acme/bench/git/refs/heads/main",
            "POST /repos/acme/bench/check-runs");
    List<String> answers =
        List.of(
            "GET /repos/acme/bench/pulls/1 200",
            "GET /repos/acme/bench/pulls/1 304",
            "PATCH /repos/acme/bench/git/refs/heads/main 422",
            "POST /repos/acme/bench/check-runs 201");

    RequestTally tally =
        RequestTally.of(calls, answers, (method, path) -> path.replaceAll("/\\d+$", "/{n}"));

    assertThat(tally.total()).isEqualTo(4);
    assertThat(tally.reads()).isEqualTo(2);
    assertThat(tally.writes()).isEqualTo(2);
    assertThat(tally.reads(Family.PULLS)).isEqualTo(2);
    assertThat(tally.writes(Family.REFS)).isEqualTo(1);
    assertThat(tally.writes(Family.CHECK_RUNS)).isEqualTo(1);
    assertThat(tally.notModified()).isEqualTo(1);
    assertThat(tally.operations()).containsEntry("GET /repos/acme/bench/pulls/{n}", 2);
    assertThat(tally.refused())
        .isEqualTo(Map.of("PATCH /repos/acme/bench/git/refs/heads/main → 422", 1));
  }
}

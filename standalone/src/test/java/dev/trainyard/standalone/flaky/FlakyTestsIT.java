package dev.trainyard.standalone.flaky;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.flaky.FlakyTestsHeaders;
import dev.trainyard.common.flaky.RequestProof;
import dev.trainyard.common.json.Json;
import dev.trainyard.flaky.store.FlakyCollections;
import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.EmbeddedInfrastructure;
import dev.trainyard.standalone.support.GitHost;
import dev.trainyard.standalone.support.IndexCoverage;
import dev.trainyard.standalone.support.OwnStack;
import dev.trainyard.standalone.support.Stack;
import dev.trainyard.standalone.support.TestStack;
import dev.trainyard.standalone.support.WebhookReceiver;
import dev.trainyard.worker.scm.git.BareRepo;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.bson.Document;
import org.eclipse.jgit.lib.ObjectId;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.mongodb.core.MongoTemplate;
import tools.jackson.databind.JsonNode;

/**
 * The flaky-tests service through the gateway, over real sockets: upload → classify → list, owners
 * and tickets, quarantine and its events at a real subscribed receiver, tenancy, hostile uploads
 * that store nothing, and the service called directly with forged, stale and replayed proofs. On
 * the embedded store, every query each scenario sends is served by a declared index.
 */
class FlakyTestsIT extends OwnStack {
  private static final Duration PATIENCE = Duration.ofSeconds(60);
  private final Path gitRoot = GitHost.newRoot();
  private Api api;
  private WebhookReceiver receiver;
  private IndexCoverage.Watch indexes;

  @BeforeEach
  void setUp() throws Exception {
    api = stack.api();
    receiver = new WebhookReceiver();
    if (stack.infrastructure() instanceof EmbeddedInfrastructure embedded) {
      indexes = IndexCoverage.watch(embedded);
    }
  }

  /** Every query a scenario sent the store was served by a declared index. */
  @AfterEach
  void tearDown() {
    receiver.close();
    if (indexes != null) {
      assertThat(indexes.unindexed()).as("queries no declared index serves").isEmpty();
    }
  }

  @Override
  protected Map<String, Object> properties() {
    return Map.of("trainyard.git.root", gitRoot.toString());
  }

  @Test
  void codeownersFollowTheTargetBranchOfTheGitRepository() throws Exception {
    String repo = Api.uniqueRepo();
    String file = "tests/test_cart.py";
    try (BareRepo git = new BareRepo(GitHost.location(gitRoot, TestStack.ORG, repo))) {
      ObjectId main =
          git.commit(null, BareRepo.files("CODEOWNERS", "* @acme/shop\n"), "owners", "carol");
      git.setRef("refs/heads/main", main);
      ObjectId pr =
          git.commit(main, BareRepo.files("CODEOWNERS", "* @acme/intruder\n"), "mine", "mallory");
      git.setRef("refs/pull/7/head", pr);

      // the same commit of main fails and passes (F1); no codeowners part in either upload
      for (String outcome : List.of("test_total:F", "test_total:P")) {
        Api.Response r =
            upload(
                Multipart.upload(repo, main.name(), "main", null)
                    .file("file", "pytest.xml", Reports.pytest(file, List.of(outcome))));
        assertThat(r.status()).as(r.body()).isEqualTo(200);
      }
      JsonNode total = byName(list(repo, "FLAKY", 10, "").get("tests"), "test_total");
      assertThat(total.get("codeowners").get(0).asString()).isEqualTo("@acme/shop");

      // a pull request's commit changes CODEOWNERS, but it is not merged: the owners stay
      Api.Response fromPr =
          upload(
              Multipart.upload(repo, pr.name(), "feature/mine", 7L)
                  .file("file", "pytest.xml", Reports.pytest(file, List.of("test_total:F"))));
      assertThat(fromPr.status()).as(fromPr.body()).isEqualTo(200);
      total = byName(list(repo, "FLAKY", 10, "").get("tests"), "test_total");
      assertThat(total.get("codeowners").get(0).asString()).isEqualTo("@acme/shop");
    }
  }

  @Test
  void onlyPushesToTheTargetBranchCountForItsRatesAndBringTheirOwners() {
    String repo = Api.uniqueRepo();
    String file = "tests/test_cart.py";
    // no target_branch set and no git repository: main, master or develop is the target
    for (String outcome : List.of("test_total:F", "test_total:P")) {
      Api.Response r =
          upload(
              Multipart.upload(repo, "m1", "refs/heads/main", null)
                  .file("file", "pytest.xml", Reports.pytest(file, List.of(outcome)))
                  .field("codeowners", "* @acme/shop\n"));
      assertThat(r.status()).as(r.body()).isEqualTo(200);
    }
    // a developer's branch pushed without a PR, and GitHub's merge-queue branch: never the target
    for (int run = 0; run < 5; run++) {
      String branch = run % 2 == 0 ? "feature/login" : "gh-readonly-queue/main/pr-9-f" + run;
      Api.Response r =
          upload(
              Multipart.upload(repo, "f" + run, branch, null)
                  .file("file", "pytest.xml", Reports.pytest(file, List.of("test_login:F")))
                  .field("codeowners", "* @acme/intruder\n"));
      assertThat(r.status()).as(r.body()).isEqualTo(200);
    }

    assertThat(list(repo, "BROKEN", 10, "").get("tests")).isEmpty();
    JsonNode total = byName(list(repo, "FLAKY", 10, "").get("tests"), "test_total");
    assertThat(total.get("codeowners").get(0).asString()).isEqualTo("@acme/shop");

    // the same five failures pushed to refs/heads/main are the target's: broken
    for (int run = 0; run < 5; run++) {
      Api.Response r =
          upload(
              Multipart.upload(repo, "m" + (run + 2), "refs/heads/main", null)
                  .file("file", "pytest.xml", Reports.pytest(file, List.of("test_login:F"))));
      assertThat(r.status()).as(r.body()).isEqualTo(200);
    }
    JsonNode broken = list(repo, "BROKEN", 10, "").get("tests");
    assertThat(broken).hasSize(1);
    assertThat(broken.get(0).get("name").asString()).isEqualTo("test_login");
  }

  @Test
  void uploadsAreClassifiedListedQuarantinedAndAnnounced() {
    subscribe("[\"test_case.*\"]");
    String repo = Api.uniqueRepo();
    assertThat(
            api.post(
                    "/v1/flaky-tests/update-repo-settings",
                    repoBody(repo, "\"auto_quarantine\":true,\"target_branch\":\"main\""))
                .status())
        .isEqualTo(200);
    String pyFile = "tests/test_sum.py";
    // CODEOWNERS come with a run on the target branch (a PR's copy is not merged yet)
    Api.Response owners =
        upload(
            Multipart.upload(repo, "m0", "main", null)
                .file("file", "pytest.xml", Reports.pytest(pyFile, List.of("test_ok:P")))
                .field("codeowners", "* @acme/everyone\ntests/ @acme/payments\n"));
    assertThat(owners.status()).as(owners.body()).isEqualTo(200);
    // the same commit fails and passes on a PR branch (F1); a Surefire test passes on retry (F2)
    Api.Response first =
        upload(
            Multipart.upload(repo, "abc123", "feature/x", 41L)
                .file(
                    "file",
                    "pytest.xml",
                    Reports.pytest(pyFile, List.of("test_adds:F", "test_ok:P")))
                .file(
                    "file",
                    "TEST-com.acme.NetTest.xml",
                    Reports.surefire("com.acme.NetTest", List.of("talks:R", "steady:P"))));
    assertThat(first.status()).as(first.body()).isEqualTo(200);
    assertThat(first.json().get("testCases").asInt()).isEqualTo(4);
    assertThat(first.json().get("uploadId").asString()).isNotEmpty();
    Api.Response second =
        upload(
            Multipart.upload(repo, "abc123", "feature/x", 41L)
                .file(
                    "file",
                    "pytest.xml",
                    Reports.pytest(pyFile, List.of("test_adds:P", "test_ok:P"))));
    assertThat(second.status()).as(second.body()).isEqualTo(200);

    JsonNode page = list(repo, "FLAKY", 25, "");

    assertThat(page.get("page").get("total_rows").asInt()).isEqualTo(2);
    JsonNode adds = byName(page.get("tests"), "test_adds");
    assertThat(adds.get("status").get("value").asString()).isEqualTo("flaky");
    assertThat(adds.get("status").get("reason").asString())
        .isEqualTo("passed and failed on the same commit once in 7 days");
    assertThat(adds.get("file_path").asString()).isEqualTo(pyFile);
    assertThat(adds.get("classname").asString()).isEqualTo("tests.test_sum");
    assertThat(adds.get("codeowners").get(0).asString()).isEqualTo("@acme/payments");
    assertThat(adds.get("quarantined").asBoolean()).isTrue();
    assertThat(adds.get("pull_requests_impacted_last_7d").asInt()).isEqualTo(1);
    assertThat(adds.get("repository").get("html_url").asString())
        .isEqualTo("https://github.com/acme/" + repo);
    assertThat(adds.get("html_url").asString())
        .endsWith("/" + TestStack.ORG + "/flaky-tests/test/" + adds.get("id").asString());
    assertThat(adds.has("ticket")).isFalse();
    JsonNode talks = byName(page.get("tests"), "talks");
    assertThat(talks.get("status").get("reason").asString())
        .isEqualTo("passed on a retry once in 7 days");
    assertThat(talks.has("file_path")).isFalse();
    // no file attribute: Surefire's classname leads to src/test/java/com/acme/NetTest.java
    assertThat(talks.get("codeowners").get(0).asString()).isEqualTo("@acme/everyone");
    String addsId = adds.get("id").asString();

    // a re-upload keeps the id (UUID v5 of the identity)
    upload(
        Multipart.upload(repo, "def456", "feature/x", 41L)
            .file("file", "pytest.xml", Reports.pytest(pyFile, List.of("test_adds:P"))));
    assertThat(byName(list(repo, "FLAKY", 25, "").get("tests"), "test_adds").get("id").asString())
        .isEqualTo(addsId);

    assertThat(quarantinedIds(repo)).contains(addsId, talks.get("id").asString());
    assertThat(
            api.post(
                    "/v1/flaky-tests/set-quarantine-setting",
                    repoBody(
                        repo,
                        "\"test_id\":\""
                            + addsId
                            + "\",\"setting\":\"NEVER_QUARANTINE\",\"reason\":\"we fix it today\""))
                .status())
        .isEqualTo(200);
    assertThat(quarantinedIds(repo)).doesNotContain(addsId).contains(talks.get("id").asString());
    assertThat(
            api.post(
                    "/v1/flaky-tests/link-ticket-to-test-case",
                    repoBody(
                        repo,
                        "\"test_id\":\""
                            + addsId
                            + "\",\"ticket_url\":\"https://tracker/ISSUE-10\""))
                .status())
        .isEqualTo(200);
    JsonNode after = byName(list(repo, "FLAKY", 25, "").get("tests"), "test_adds");
    assertThat(after.get("ticket").get("html_url").asString())
        .isEqualTo("https://tracker/ISSUE-10");
    assertThat(after.get("quarantined").asBoolean()).isFalse();

    JsonNode quarantineEvent = awaitEvent(repo, "test_case.quarantining_setting_changed");
    JsonNode change = quarantineEvent.get("quarantine_setting_changed");
    assertThat(change.get("previous_quarantining_setting").asString()).isEqualTo("UNSPECIFIED");
    assertThat(change.get("updated_quarantining_setting").asString()).isEqualTo("NEVER_QUARANTINE");
    assertThat(change.get("reason").asString()).isEqualTo("we fix it today");
    assertThat(change.get("actor").has("full_name")).isTrue();
    assertThat(quarantineEvent.get("test_case").get("id").asString()).isEqualTo(addsId);
    JsonNode statusEvent = awaitEvent(repo, "test_case.status_changed");
    assertThat(statusEvent.get("status_change").get("previous_status").asString())
        .isEqualTo("healthy");
    assertThat(statusEvent.get("status_change").get("current_status").get("value").asString())
        .isEqualTo("flaky");
  }

  /**
   * Issue 49, item 2: a database that did not come up fails 28 of 30 tests; the re-run passes.
   * Before, all 28 were listed flaky for a week (and, auto-quarantined, excused by the queue). The
   * upload's answer names the outage, no test is listed, and a real flake beside it still is.
   */
  @Test
  void anOutageAndItsPassingRerunListNothingWhileARealFlakeIsListed() {
    String repo = Api.uniqueRepo();
    List<String> down = new ArrayList<>();
    List<String> up = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      down.add("t" + i + (i < 28 ? ":F" : ":P"));
      up.add("t" + i + ":P");
    }
    Api.Response outage =
        upload(
            Multipart.upload(repo, "sha-outage", "feature/x", 7L)
                .file(
                    "file", "TEST-com.acme.DbTest.xml", Reports.surefire("com.acme.DbTest", down)));
    assertThat(outage.status()).as(outage.body()).isEqualTo(200);
    JsonNode said = outage.json().get("outage");
    assertThat(said.get("failedTestCases").asInt()).isEqualTo(28);
    assertThat(said.get("ranTestCases").asInt()).isEqualTo(30);
    assertThat(said.get("message").asString()).contains("28 of the 30", "infrastructure failure");
    Api.Response rerun =
        upload(
            Multipart.upload(repo, "sha-outage", "feature/x", 7L)
                .file("file", "TEST-com.acme.DbTest.xml", Reports.surefire("com.acme.DbTest", up)));
    assertThat(rerun.json().get("outage").isNull()).as(rerun.body()).isTrue();
    List<String> oneFails = new ArrayList<>(up);
    oneFails.set(3, "t3:F");
    for (List<String> cases : List.of(oneFails, up)) {
      Api.Response r =
          upload(
              Multipart.upload(repo, "sha-flake", "feature/y", 8L)
                  .file(
                      "file",
                      "TEST-com.acme.DbTest.xml",
                      Reports.surefire("com.acme.DbTest", cases)));
      assertThat(r.json().get("outage").isNull()).as(r.body()).isTrue();
    }

    JsonNode flaky = list(repo, "FLAKY", 50, "");

    assertThat(flaky.get("tests")).extracting(t -> t.get("name").asString()).containsExactly("t3");
    assertThat(list(repo, "BROKEN", 50, "").get("tests")).isEmpty();
  }

  /**
   * Issue 49, item 8: in a cluster no git folder is mounted, so the default branch was never known
   * and only main, master and develop were target branches: a repository merging into trunk never
   * got a broken test. The branch its merge queue merges into is a target branch.
   */
  @Test
  void theBranchAQueueMergesIntoIsTheTargetWithoutASetting() {
    String repo = Api.uniqueRepo();
    Api.Response queue =
        api.post(
            "/v1/createQueue",
            "{\"repo\":{\"host\":\"github.com\",\"owner\":\"acme\",\"name\":\""
                + repo
                + "\"},\"targetBranch\":\"trunk\"}");
    assertThat(queue.status()).as(queue.body()).isEqualTo(200);
    for (int run = 0; run < 5; run++) {
      uploaded(
          Multipart.upload(repo, "trunk" + run, "trunk", null)
              .file(
                  "file",
                  "TEST-com.acme.TrunkTest.xml",
                  Reports.surefire("com.acme.TrunkTest", List.of("overflows:F", "adds:P"))));
    }

    assertOnlyListed(
        repo, "BROKEN", "overflows", "its last 5 runs on the target branch all failed");
  }

  /**
   * Issue 49, item 5: a class's setup is reported only when it fails, so its history was failures
   * alone and five of them at any spacing listed it broken. Every run of its class without it is
   * now a pass of it: a setup failing every other run is flaky, not broken.
   */
  @Test
  void aSetupReportedOnlyWhenItFailsIsJudgedAgainstTheRunsOfItsClass() {
    String repo = Api.uniqueRepo();
    for (int run = 0; run < 10; run++) {
      List<String> cases = run % 2 == 0 ? List.of(":E") : List.of("books:P", "sums:P");
      uploaded(
          Multipart.upload(repo, "setup" + run, "main", null)
              .file(
                  "file",
                  "TEST-com.acme.LedgerTest.xml",
                  Reports.surefire("com.acme.LedgerTest", cases)));
    }

    assertThat(list(repo, "BROKEN", 10, "").get("tests")).isEmpty();
    assertOnlyListed(
        repo,
        "FLAKY",
        "(class setup)",
        "failed in 5 of its last 10 runs on the target branch (50 %)");
  }

  /**
   * Issue 49, item 3: a CI matrix whose jobs each upload their own report without a variant.
   * Before, Java 17 passing and Java 21 failing on one commit read as passed-and-failed: flaky for
   * ever, and a test failing only on Java 21 was never broken. The report's own properties tell the
   * jobs apart; the answer says so and suggests a variant.
   */
  @Test
  void aMatrixsJobsAreTwoConfigurationsNeverARetry() {
    String repo = Api.uniqueRepo();
    for (int run = 0; run < 5; run++) {
      for (String java : List.of("17.0.15", "21.0.5")) {
        String cases = java.startsWith("21") ? "records:F" : "records:P";
        Api.Response r =
            uploaded(
                Multipart.upload(repo, "matrix" + run, "main", null)
                    .file("file", "TEST-com.acme.JdkTest.xml", onJava(java, cases)));
        if (java.startsWith("21")) {
          JsonNode others = r.json().get("otherConfigurations");
          assertThat(others.get("testCases").asInt()).as(r.body()).isEqualTo(1);
          assertThat(others.get("message").asString())
              .contains("java.version=17.0.15", "java.version=21.0.5", "variant");
        }
      }
    }

    assertThat(list(repo, "FLAKY", 10, "").get("tests")).isEmpty();
    assertOnlyListed(
        repo,
        "BROKEN",
        "records",
        "its last 5 runs on the target branch all failed (in java.version=21.0.5)");
  }

  /** A Surefire report of com.acme.JdkTest run on Java {@code java}: {@code name:P|F}. */
  private static String onJava(String java, String testCase) {
    String name = testCase.substring(0, testCase.indexOf(':'));
    boolean failed = testCase.endsWith(":F");
    return "<testsuite name=\"com.acme.JdkTest\" tests=\"1\">"
        + "<properties><property name=\"java.version\" value=\""
        + java
        + "\"/><property name=\"user.dir\" value=\"/home/runner/work\"/></properties>"
        + "<testcase name=\""
        + name
        + "\" classname=\"com.acme.JdkTest\""
        + (failed ? "><failure message=\"no\"/></testcase>" : "/>")
        + "</testsuite>";
  }

  /**
   * Issue 49, item 9: a renamed test is a new id, and its quarantine stayed with the old one, so CI
   * failed on it again. The upload's renames carry the override over; a parameterised name whose
   * port changes every run stays one test.
   */
  @Test
  void aRenameTheUploadNamesKeepsTheQuarantineAndAPortDoesNotMakeANewTest() {
    String repo = Api.uniqueRepo();
    for (String port : List.of("54321", "40117")) {
      uploaded(
          Multipart.upload(repo, "p" + port, "feature/x", 3L)
              .file(
                  "file",
                  "TEST-com.acme.NetTest.xml",
                  Reports.surefire("com.acme.NetTest", List.of("fetch[port=" + port + "]:P"))));
    }
    assertThat(list(repo, "FLAKY", 10, "").get("tests")).isEmpty();
    assertThat(storedTests(repo)).as("one test, whatever the port").isEqualTo(1);
    String oldId = onlyTestId(repo);
    assertThat(
            api.post(
                    "/v1/flaky-tests/set-quarantine-setting",
                    repoBody(
                        repo,
                        "\"test_id\":\""
                            + oldId
                            + "\",\"setting\":\"ALWAYS_QUARANTINE\",\"reason\":\"noisy\""))
                .status())
        .isEqualTo(200);

    Api.Response renamed =
        uploaded(
            Multipart.upload(repo, "renamed", "feature/x", 3L)
                .field(
                    "renames",
                    "[{\"from\":\""
                        + oldId
                        + "\",\"classname\":\"com.acme.NetTest\",\"name\":\"fetches[port=1234]\"}]")
                .file(
                    "file",
                    "TEST-com.acme.NetTest.xml",
                    Reports.surefire("com.acme.NetTest", List.of("fetches[port=8080]:P"))));

    JsonNode carried = renamed.json().get("renamed");
    assertThat(carried).hasSize(1);
    assertThat(carried.get(0).get("from").asString()).isEqualTo(oldId);
    assertThat(carried.get(0).get("setting").asString()).isEqualTo("ALWAYS_QUARANTINE");
    String newId = carried.get(0).get("to").asString();
    assertThat(newId).isNotEqualTo(oldId);
    assertThat(quarantinedIds(repo)).contains(oldId, newId);
    // another organization naming this one's quarantined test takes nothing from it
    Api.Response stranger =
        Multipart.upload(repo, "renamed", "feature/x", 3L)
            .field("renames", "[{\"from\":\"" + oldId + "\",\"name\":\"fetches[port=1234]\"}]")
            .file(
                "file",
                "TEST-com.acme.NetTest.xml",
                Reports.surefire("com.acme.NetTest", List.of("fetches[port=8080]:P")))
            .uploadWith(stack.otherOrganization().api());
    assertThat(stranger.status()).as(stranger.body()).isEqualTo(200);
    assertThat(stranger.json().get("renamed")).isEmpty();
    assertThat(
            upload(
                    Multipart.upload(repo, "bad", "feature/x", 3L)
                        .field("renames", "{\"from\":\"x\"}")
                        .file(
                            "file",
                            "TEST-com.acme.NetTest.xml",
                            Reports.surefire("com.acme.NetTest", List.of("fetches[port=1]:P"))))
                .status())
        .isEqualTo(400);
  }

  @Test
  void brokenTestsOnTheTargetBranchAreListedAndNeverAutoQuarantined() {
    String repo = Api.uniqueRepo();
    assertThat(
            api.post(
                    "/v1/flaky-tests/update-repo-settings",
                    repoBody(repo, "\"auto_quarantine\":true"))
                .status())
        .isEqualTo(200);
    for (int run = 0; run < 5; run++) {
      // "talks" passes on a retry in every run: flaky, and auto-quarantined in the same repository
      Api.Response r =
          upload(
              Multipart.upload(repo, "sha" + run, "master", null)
                  .file(
                      "file",
                      "TEST-com.acme.SumTest.xml",
                      Reports.surefire(
                          "com.acme.SumTest", List.of("overflows:F", "adds:P", "talks:R"))));
      assertThat(r.status()).as(r.body()).isEqualTo(200);
    }

    JsonNode flaky = list(repo, "FLAKY", 10, "");
    assertThat(flaky.get("tests")).hasSize(1);
    String talksId = flaky.get("tests").get(0).get("id").asString();
    assertThat(flaky.get("tests").get(0).get("quarantined").asBoolean()).isTrue();
    assertThat(quarantinedIds(repo)).containsExactly(talksId);
    // no target_branch set: pushes to master without a PR number are the target-branch runs
    JsonNode broken = list(repo, "BROKEN", 10, "");

    assertThat(broken.get("tests")).hasSize(1);
    JsonNode overflows = broken.get("tests").get(0);
    assertThat(overflows.get("name").asString()).isEqualTo("overflows");
    assertThat(overflows.get("status").get("reason").asString())
        .isEqualTo("its last 5 runs on the target branch all failed");
    assertThat(overflows.get("quarantined").asBoolean()).isFalse();
  }

  @Test
  void aClassWhoseSetupFailsKeepsItsUploadAndIsListedBrokenOnTheTarget() {
    String repo = Api.uniqueRepo();
    for (int run = 0; run < 5; run++) {
      Api.Response r =
          upload(
              Multipart.upload(repo, "setup" + run, "main", null)
                  .file(
                      "file",
                      "TEST-com.acme.LedgerTest.xml",
                      Reports.surefire("com.acme.LedgerTest", List.of(":E")))
                  .file(
                      "file",
                      "TEST-com.acme.SumTest.xml",
                      Reports.surefire("com.acme.SumTest", List.of("adds:P")))
                  .file("file", "odd.xml", "<testsuite><testcase name=\"\"/></testsuite>"));
      assertThat(r.status()).as(r.body()).isEqualTo(200);
      assertThat(r.json().get("testCases").asInt()).isEqualTo(2);
      assertThat(r.json().get("skippedTestCases").asInt()).isEqualTo(1);
      assertThat(r.json().get("skipped").get(0).asString())
          .isEqualTo("odd.xml:1: a <testcase> with neither a name nor a classname");
    }

    JsonNode broken = list(repo, "BROKEN", 10, "");

    assertThat(broken.get("tests")).hasSize(1);
    JsonNode setup = broken.get("tests").get(0);
    assertThat(setup.get("name").asString()).isEqualTo("(class setup)");
    assertThat(setup.get("classname").asString()).isEqualTo("com.acme.LedgerTest");
    assertThat(setup.get("status").get("reason").asString())
        .isEqualTo("its last 5 runs on the target branch all failed");
  }

  @Test
  void fieldsSentAsPartsOfTheirOwnTypeAreReadAsFormFields() {
    // curl -F 'repo=…;type=application/json', Python requests' 3-tuples, most libraries' JSON parts
    String repo = Api.uniqueRepo();
    Api.Response r =
        upload(
            new Multipart()
                .typed(
                    "repo",
                    "application/json",
                    "{\"host\":\"github.com\",\"owner\":\"acme\",\"name\":\"" + repo + "\"}")
                .typed("commitSha", "application/x-www-form-urlencoded", "abc")
                .typed("branch", "application/octet-stream", "main")
                .file("file", "r.xml", Reports.surefire("a.B", List.of("t:F", "u:P"))));

    assertThat(r.status()).as(r.body()).isEqualTo(200);
    assertThat(r.json().get("testCases").asInt()).isEqualTo(2);
    assertThat(storedFor(repo)).isPositive();
  }

  @Test
  void theSameUploadSentTwiceCountsOnce() {
    String repo = Api.uniqueRepo();
    // 4 failures of 5 on main: a fifth counted twice would make it broken (B2)
    for (int run = 0; run < 4; run++) {
      String outcome = run == 0 ? "t:P" : "t:F";
      Api.Response r =
          upload(
              Multipart.upload(repo, "sha" + run, "main", null)
                  .file("file", "r.xml", Reports.surefire("a.B", List.of(outcome))));
      assertThat(r.status()).as(r.body()).isEqualTo(200);
    }
    Api.Response once =
        upload(
            Multipart.upload(repo, "sha-again", "main", null)
                .file("file", "r.xml", Reports.surefire("a.B", List.of("t:F"))));
    Api.Response twice =
        upload(
            Multipart.upload(repo, "sha-again", "main", null)
                .file("file", "r.xml", Reports.surefire("a.B", List.of("t:F"))));

    assertThat(twice.status()).as(twice.body()).isEqualTo(200);
    assertThat(twice.json().get("uploadId").asString())
        .isEqualTo(once.json().get("uploadId").asString());
    assertThat(list(repo, "BROKEN", 10, "").get("page").get("total_rows").asInt()).isZero();
    // a genuinely new fifth failure does make it broken
    upload(
        Multipart.upload(repo, "sha-new", "main", null)
            .file("file", "r.xml", Reports.surefire("a.B", List.of("t:F"))));
    assertThat(list(repo, "BROKEN", 10, "").get("page").get("total_rows").asInt()).isEqualTo(1);
  }

  @Test
  void twoInterpretersInOneUploadAreTwoConfigurationsNotARetry() throws Exception {
    String repo = Api.uniqueRepo();
    assertThat(
            api.post(
                    "/v1/flaky-tests/update-repo-settings",
                    repoBody(repo, "\"auto_quarantine\":true"))
                .status())
        .isEqualTo(200);
    String py311 = fixture("pytest-py311.xml");
    String py310 = fixture("pytest-py310.xml");

    Api.Response together =
        upload(
            Multipart.upload(repo, "sha1", "main", null)
                .file("file", "py311.xml", py311)
                .file("file", "py310.xml", py310));

    assertThat(together.status()).as(together.body()).isEqualTo(200);
    assertThat(together.json().get("collidingTestCases").asInt()).isEqualTo(2);
    assertThat(together.json().get("colliding").get(1).asString())
        .isEqualTo("tests.test_dates test_fromisoformat_z in py311.xml and py310.xml");
    // a failure on one interpreter is a failure, not a pass on a retry: nothing flaky to quarantine
    assertThat(list(repo, "FLAKY", 10, "").get("page").get("total_rows").asInt()).isZero();
    assertThat(quarantinedIds(repo)).isEmpty();

    Api.Response apart =
        upload(
            Multipart.upload(repo, "sha2", "main", null)
                .file("file:py311", "py311.xml", py311)
                .file("file:py310", "py310.xml", py310));

    assertThat(apart.status()).as(apart.body()).isEqualTo(200);
    assertThat(apart.json().get("testCases").asInt()).isEqualTo(4);
    assertThat(apart.json().get("collidingTestCases").asInt()).isZero();
  }

  private static String fixture(String name) throws java.io.IOException {
    try (var in = FlakyTestsIT.class.getResourceAsStream("/reports/" + name)) {
      return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    }
  }

  @Test
  void aReusedUploadIdWithOtherContentIsRefusedAndKeepsTheFirstRun() {
    String repo = Api.uniqueRepo();
    String id = java.util.UUID.randomUUID().toString();
    Api.Response first =
        upload(
            Multipart.upload(repo, "sha1", "main", null)
                .field("uploadId", id)
                .file("file", "r.xml", Reports.surefire("a.B", List.of("t:F"))));
    Api.Response resent =
        upload(
            Multipart.upload(repo, "sha1", "main", null)
                .field("uploadId", id)
                .file("file", "r.xml", Reports.surefire("a.B", List.of("t:F"))));
    // a CI job's rerun that kept the id of its first attempt
    Api.Response rerun =
        upload(
            Multipart.upload(repo, "sha1", "main", null)
                .field("uploadId", id)
                .file("file", "r.xml", Reports.surefire("a.B", List.of("t:P"))));

    assertThat(first.status()).as(first.body()).isEqualTo(200);
    assertThat(resent.status()).as("the same content again: " + resent.body()).isEqualTo(200);
    assertThat(rerun.status()).as(rerun.body()).isEqualTo(422);
    assertThat(rerun.body()).contains("uploadId " + id + " was already used");
    // the refused rerun changed nothing: one failure on sha1, no pass to make it flaky
    assertThat(list(repo, "FLAKY", 10, "").get("page").get("total_rows").asInt()).isZero();
  }

  @Test
  void runsOnTrainyardMergeBranchesCountForTheSameCommitRule() {
    String repo = Api.uniqueRepo();
    for (String outcome : List.of("t:F", "t:P")) {
      Api.Response r =
          upload(
              Multipart.upload(repo, "merge-sha", "trainyard-merge/main/7", null)
                  .file(
                      "file",
                      outcome.equals("t:F") ? "failed.xml" : "passed.xml",
                      Reports.surefire("a.B", List.of(outcome))));
      assertThat(r.status()).as(r.body()).isEqualTo(200);
    }

    JsonNode flaky = list(repo, "FLAKY", 10, "");

    assertThat(flaky.get("tests")).hasSize(1);
    assertThat(flaky.get("tests").get(0).get("status").get("reason").asString())
        .isEqualTo("passed and failed on the same commit once in 7 days");
  }

  @Test
  void anotherOrganizationSeesNothingOfARepositoryAndCannotChangeIt() {
    String repo = Api.uniqueRepo();
    upload(
        Multipart.upload(repo, "abc", "main", null)
            .file("file", "r.xml", Reports.surefire("a.B", List.of("t:R"))));
    String testId = list(repo, "FLAKY", 10, "").get("tests").get(0).get("id").asString();
    Stack.Organization stranger = stack.otherOrganization();
    Api other = stranger.api();

    // even naming the first organization in the internal headers, with a proof of it the service
    // would accept, gets the caller's own data: the gateway sends its own headers instead
    String path = "/v1/flaky-tests/list-unhealthy-tests";
    Api.Response listed =
        other.send(
            other
                .request(path)
                .header(FlakyTestsHeaders.ORG, TestStack.ORG)
                .header(
                    FlakyTestsHeaders.PROOF,
                    gatewayProofs(Duration.ZERO)
                        .sign(new RequestProof.Request(TestStack.ORG, "POST", path)))
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        listBody(repo, stranger.slug(), "FLAKY", 10, ""))));
    assertThat(listed.status()).as(listed.body()).isEqualTo(200);
    assertThat(listed.json().get("tests")).isEmpty();
    assertThat(listed.json().get("page").get("total_rows").asInt()).isZero();
    assertThat(listed.json().get("page").get("last_page_token").asString()).isEmpty();
    Api.Response foreignSlug =
        other.post(
            "/v1/flaky-tests/list-unhealthy-tests", listBody(repo, TestStack.ORG, "FLAKY", 10, ""));
    assertThat(foreignSlug.status()).isEqualTo(404);
    assertThat(foreignSlug.body()).contains("org_url_slug");
    Api.Response setting =
        other.post(
            "/v1/flaky-tests/set-quarantine-setting",
            repoBody(repo, "\"test_id\":\"" + testId + "\",\"setting\":\"ALWAYS_QUARANTINE\""));
    assertThat(setting.status()).isEqualTo(404);
    assertThat(setting.contentType()).startsWith("text/plain");
    assertThat(
            other
                .post("/v1/flaky-tests/get-quarantine-config", repoBody(repo, ""))
                .json()
                .get("quarantinedTests"))
        .isEmpty();
    assertThat(
            api.withToken("nonsense")
                .post("/v1/flaky-tests/get-quarantine-config", repoBody(repo, ""))
                .status())
        .isEqualTo(401);
  }

  @Test
  void hostileOrMalformedUploadsAreRejectedNamingTheFileAndStoreNothing() {
    String repo = Api.uniqueRepo();
    String valid = Reports.surefire("a.B", List.of("t:F", "u:P"));
    record Case(String file, String content, String message, String problem) {}
    for (Case c :
        List.of(
            new Case("xxe.xml", Reports.XXE, "xxe.xml line ", "DTDs are not allowed"),
            new Case(
                "laughs.xml", Reports.BILLION_LAUGHS, "laughs.xml line ", "DTDs are not allowed"),
            new Case("truncated.xml", Reports.TRUNCATED, "truncated.xml line ", "not well-formed"),
            new Case(
                "notes.xml", "<html><body/></html>", "notes.xml line 1: ", "not a JUnit XML"))) {
      Api.Response r =
          upload(
              Multipart.upload(repo, "abc", "main", 1L)
                  .file("file", "good.xml", valid)
                  .file("file", c.file(), c.content())
                  .field("codeowners", "* @acme/x"));
      assertThat(r.status()).as(c.file() + ": " + r.body()).isEqualTo(400);
      assertThat(r.contentType()).startsWith("text/plain");
      assertThat(r.body()).startsWith(c.message()).contains(c.problem());
    }
    Api.Response noFile = upload(Multipart.upload(repo, "abc", "main", null));
    assertThat(noFile.status()).isEqualTo(400);
    assertThat(noFile.body()).contains("file is required");
    Api.Response badRepo =
        upload(
            new Multipart()
                .field("repo", "{nope")
                .field("commitSha", "a")
                .field("branch", "main")
                .file("file", "good.xml", valid));
    assertThat(badRepo.status()).isEqualTo(400);
    assertThat(badRepo.body()).startsWith("repo must be a JSON object");
    Api.Response repoAsAFile =
        upload(
            new Multipart()
                .file("repo", "repo.json", "{}")
                .field("commitSha", "a")
                .field("branch", "main")
                .file("file", "good.xml", valid));
    assertThat(repoAsAFile.status()).isEqualTo(400);
    assertThat(repoAsAFile.body()).startsWith("repo must be a form field, not a file");

    assertThat(storedFor(repo)).isZero();
  }

  @Test
  void pageTokensOfAnotherQueryOrAlteredAreRejected() {
    String repo = Api.uniqueRepo();
    List<String> cases = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      cases.add("t" + i + ":R");
    }
    upload(
        Multipart.upload(repo, "abc", "main", null)
            .file("file", "r.xml", Reports.surefire("a.B", cases)));
    String next = list(repo, "FLAKY", 2, "").get("page").get("next_page_token").asString();
    assertThat(next).isNotEmpty();
    assertThat(list(repo, "FLAKY", 2, next).get("page").get("page_index").asInt()).isEqualTo(1);

    String altered = next.substring(0, next.length() - 2) + (next.endsWith("AA") ? "BB" : "AA");
    for (String body :
        List.of(
            listBody(repo, TestStack.ORG, "FLAKY", 3, next),
            listBody(repo, TestStack.ORG, "BROKEN", 2, next),
            listBody(Api.uniqueRepo(), TestStack.ORG, "FLAKY", 2, next),
            listBody(repo, TestStack.ORG, "FLAKY", 2, altered),
            listBody(repo, TestStack.ORG, "FLAKY", 2, "not-a-token"))) {
      Api.Response r = api.post("/v1/flaky-tests/list-unhealthy-tests", body);
      assertThat(r.status()).as(body).isEqualTo(400);
      assertThat(r.body()).startsWith("page_query.page_token is not a cursor of this listing");
    }
    Api.Response badSize =
        api.post(
            "/v1/flaky-tests/list-unhealthy-tests",
            listBody(repo, TestStack.ORG, "FLAKY", 101, ""));
    assertThat(badSize.status()).isEqualTo(400);
    assertThat(badSize.body()).contains("page_query.page_size");
  }

  // --- helpers

  /** Uploads {@code form}, which must be taken. */
  private Api.Response uploaded(Multipart form) {
    Api.Response r = upload(form);
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    return r;
  }

  /** The only test of {@code repo} listed {@code status} is {@code name}, for {@code reason}. */
  private void assertOnlyListed(String repo, String status, String name, String reason) {
    JsonNode tests = list(repo, status, 10, "").get("tests");
    assertThat(tests).extracting(t -> t.get("name").asString()).containsExactly(name);
    assertThat(tests.get(0).get("status").get("reason").asString()).isEqualTo(reason);
  }

  private Api.Response upload(Multipart form) {
    return form.uploadWith(api);
  }

  private JsonNode list(String repo, String status, int size, String token) {
    Api.Response r =
        api.post(
            "/v1/flaky-tests/list-unhealthy-tests",
            listBody(repo, TestStack.ORG, status, size, token));
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    return r.json();
  }

  static String listBody(String repo, String slug, String status, int size, String token) {
    return "{\"repo\":{\"host\":\"github.com\",\"owner\":\"acme\",\"name\":\""
        + repo
        + "\"},\"org_url_slug\":\""
        + slug
        + "\",\"status\":\""
        + status
        + "\",\"page_query\":{\"page_size\":"
        + size
        + ",\"page_token\":\""
        + token
        + "\"}}";
  }

  static String repoBody(String repo, String extra) {
    return "{\"repo\":{\"host\":\"github.com\",\"owner\":\"acme\",\"name\":\""
        + repo
        + "\"}"
        + (extra.isEmpty() ? "" : "," + extra)
        + "}";
  }

  private List<String> quarantinedIds(String repo) {
    Api.Response r = api.post("/v1/flaky-tests/get-quarantine-config", repoBody(repo, ""));
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    List<String> ids = new ArrayList<>();
    r.json().get("quarantinedTests").forEach(t -> ids.add(t.get("id").asString()));
    return ids;
  }

  /** The test cases of {@code repo} (a survey no index serves). */
  private long storedTests(String repo) {
    return testIdsOf(repo).size();
  }

  private String onlyTestId(String repo) {
    List<String> ids = testIdsOf(repo);
    assertThat(ids).hasSize(1);
    return ids.get(0);
  }

  private List<String> testIdsOf(String repo) {
    java.util.function.Supplier<List<String>> read =
        () ->
            stack
                .services()
                .flakyContext()
                .getBean(MongoTemplate.class)
                .getCollection(FlakyCollections.TEST_CASES)
                .find(new Document("repo", "github.com/acme/" + repo))
                .map(d -> d.getString("testId"))
                .into(new ArrayList<>());
    return indexes == null ? read.get() : indexes.aside(read);
  }

  /** Documents of any flaky collection that mention {@code repo} (a survey no index serves). */
  private long storedFor(String repo) {
    return indexes == null ? count(repo) : indexes.aside(() -> count(repo));
  }

  private long count(String repo) {
    MongoTemplate mongo = stack.services().flakyContext().getBean(MongoTemplate.class);
    String key = "github.com/acme/" + repo;
    long n = 0;
    for (String collection :
        List.of(
            FlakyCollections.TEST_CASES,
            FlakyCollections.TEST_RESULTS,
            FlakyCollections.UPLOADS,
            FlakyCollections.REPO_SETTINGS)) {
      n += mongo.getCollection(collection).countDocuments(new Document("repo", key));
    }
    return n;
  }

  private void subscribe(String eventTypes) {
    Api.Response created =
        api.post(
            "/v1/webhooks/createEndpoint",
            "{\"url\":\"" + receiver.url() + "\",\"eventTypes\":" + eventTypes + "}");
    assertThat(created.status()).as(created.body()).isEqualTo(200);
  }

  private JsonNode awaitEvent(String repo, String type) {
    Awaitility.await().atMost(PATIENCE).until(() -> event(repo, type) != null);
    return event(repo, type);
  }

  private JsonNode event(String repo, String type) {
    for (WebhookReceiver.Received r : receiver.delivered()) {
      JsonNode body = Json.mapper().readTree(r.body());
      if (body.get("type").asString().equals(type) && r.body().contains("/acme/" + repo + "\"")) {
        return body;
      }
    }
    return null;
  }

  private static JsonNode byName(JsonNode tests, String name) {
    for (JsonNode t : tests) {
      if (t.get("name").asString().equals(name)) {
        return t;
      }
    }
    throw new AssertionError("no test " + name + " in " + tests);
  }

  @Test
  void theServiceItselfAnswersOnlyAFreshUnusedGatewayProofOfThatRequest() {
    String list = "/v1/flaky-tests/list-unhealthy-tests";
    String body = listBody(Api.uniqueRepo(), TestStack.ORG, "FLAKY", 10, "");
    RequestProof.Request listing = new RequestProof.Request(TestStack.ORG, "POST", list);
    String captured = gatewayProofs(Duration.ZERO).sign(listing);

    // replayed on another path before the gateway's own request arrives: bound to its path
    assertRefused(
        direct("/v1/flaky-tests/get-quarantine-config", body, TestStack.ORG, captured),
        "the gateway proof does not match this request");
    assertRefused(
        direct(list, body, "other-org", captured), "the gateway proof does not match this request");
    assertThat(direct(list, body, TestStack.ORG, captured).status()).isEqualTo(200);
    // replayed on its own path afterwards: spent
    assertRefused(direct(list, body, TestStack.ORG, captured), "the gateway proof was used before");

    // captured more than five minutes ago (or made by a gateway whose clock runs that far ahead)
    for (Duration skew :
        List.of(Duration.ofMinutes(-5).minusSeconds(1), Duration.ofMinutes(5).plusSeconds(1))) {
      assertRefused(
          direct(list, body, TestStack.ORG, gatewayProofs(skew).sign(listing)),
          "more than 5 minutes");
    }
    String forged =
        new RequestProof("not the key of the gateway, not at all", Instant::now).sign(listing);
    assertRefused(
        direct(list, body, TestStack.ORG, forged), "the gateway proof does not match this request");
    for (String spelling : List.of(list, "/v1/flaky%2Dtests/list-unhealthy-tests")) {
      assertRefused(
          direct(spelling, body, TestStack.ORG, null),
          "the request carries no gateway proof of its organization");
    }
  }

  /** Proofs as the gateway makes them, with a clock {@code skew} off the service's. */
  private RequestProof gatewayProofs(Duration skew) {
    String key =
        stack
            .services()
            .flakyContext()
            .getEnvironment()
            .getRequiredProperty("trainyard.flaky.internal-key");
    return new RequestProof(key, () -> Instant.now().plus(skew));
  }

  /** A request straight to the flaky-tests service, past the gateway. */
  private Api.Response direct(String path, String body, String org, String proof) {
    Api service =
        new Api(
            "http://127.0.0.1:"
                + stack
                    .services()
                    .flakyContext()
                    .getEnvironment()
                    .getRequiredProperty("local.server.port"),
            null);
    HttpRequest.Builder request =
        service
            .request(path)
            .header(FlakyTestsHeaders.ORG, org)
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (proof != null) {
      request.header(FlakyTestsHeaders.PROOF, proof);
    }
    return service.send(request);
  }

  private static void assertRefused(Api.Response response, String reason) {
    assertThat(response.status()).as(response.body()).isEqualTo(401);
    assertThat(response.contentType()).startsWith("text/plain");
    assertThat(response.body()).contains(reason).contains("through the gateway");
  }
}

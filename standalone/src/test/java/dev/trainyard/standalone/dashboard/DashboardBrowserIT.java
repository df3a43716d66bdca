package dev.trainyard.standalone.dashboard;

import static dev.trainyard.standalone.support.QueueSteps.awaitState;
import static dev.trainyard.standalone.support.QueueSteps.create;
import static dev.trainyard.standalone.support.QueueSteps.submit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.standalone.flaky.Multipart;
import dev.trainyard.standalone.flaky.Reports;
import dev.trainyard.standalone.queue.QueueScenario;
import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.Browser;
import dev.trainyard.standalone.support.CiSimulator;
import dev.trainyard.standalone.support.QueueSteps;
import dev.trainyard.standalone.support.Stack;
import dev.trainyard.standalone.support.TestStack;
import dev.trainyard.standalone.support.WebhookReceiver;
import java.net.http.HttpRequest;
import java.util.List;
import org.awaitility.Awaitility;
import org.eclipse.jgit.lib.ObjectId;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The dashboard (API.md §8) in a real headless Chromium against the standalone: sign-in, a queue of
 * PRs on a real git repository landing while the open page follows without a reload, a failed PR's
 * reason, a flaky test quarantined from its page, a delivery redelivered, another organization
 * seeing none of it, a POST without its CSRF token changing nothing, and axe-core on every page
 * with no serious or critical violation.
 */
class DashboardBrowserIT extends QueueScenario {
  private Browser browser;

  @BeforeEach
  void browser() {
    Browser.required();
    browser = new Browser(stack.api().base());
  }

  @AfterEach
  void closeBrowser() {
    if (browser != null) {
      browser.close();
    }
  }

  private String queuePath() {
    return "/ui/queues/github.com/acme/" + name + "/main";
  }

  private void accessible(String page) {
    assertThat(browser.seriousViolations()).as("axe-core on " + page).isEmpty();
    assertThat(browser.fitsWidth(360)).as(page + " at a phone's width").isTrue();
  }

  @Test
  void aQueueLandsWhileItsOpenPageFollowsWithoutAReload() throws Exception {
    ci.hold(true);
    create(api, name, 2);
    for (long pr = 1; pr <= 3; pr++) {
      git.openPr(pr, "Add file " + pr, "dev" + pr, "f" + pr + ".txt", pr + "\n");
      submit(api, name, pr);
    }
    awaitState(api, name, 1, "testing");
    awaitState(api, name, 2, "testing");

    browser.signIn(queuePath(), api.token());
    browser.awaitLive();
    browser.markDocument();
    browser.await().until(d -> browser.all("svg.graph g.run").size() == 2);
    assertThat(browser.text("#pr-3"))
        .contains("pending")
        .contains("It is next to be tested and starts when a test run ahead of it ends");
    assertThat(browser.text("#runs table")).contains("#1").contains("#2");
    browser.screenshot("queue-single");
    accessible("the queue page");

    ci.reportNow(tree -> tree.containsKey("f1.txt") && !tree.containsKey("f2.txt"));
    browser.await().until(d -> browser.all("#concluded-1").size() == 1);
    assertThat(browser.text("#concluded-1")).contains("merged").contains("MERGE_GRAPH_MERGE");
    ci.hold(false);
    browser.await().until(d -> browser.all("#concluded-3").size() == 1);
    browser.await().until(d -> browser.all("svg.graph g.run").isEmpty());
    assertThat(browser.reloaded()).as("the page followed the queue without a reload").isFalse();

    browser.open(queuePath() + "/pulls/2");
    assertThat(browser.text("#pr-state-value")).isEqualTo("merged");
    assertThat(browser.text("#timeline"))
        .contains("pending")
        .contains("testing")
        .contains("merged")
        .contains("API_REQUESTED");
    assertThat(browser.text("#pr-runs")).contains("ci/test: success");
    assertThat(browser.text("#pr-runs a[href^='https://ci.example/']"))
        .isEqualTo("ci/test: success");
    browser.screenshot("pull-request");
    accessible("the PR page");

    browser.open("/ui/");
    assertThat(browser.text("#queues")).contains(name).contains("running");
    accessible("the overview");

    browser.find("#find-q").sendKeys("#2");
    browser.click("form[action='/ui/find'] button");
    browser.await().until(d -> browser.path().startsWith("/ui/find?q="));
    assertThat(browser.text("#found")).contains("#2").contains(name).contains("merged");
    accessible("the find page");

    // a form posted with this session but without (or with a forged) CSRF token changes nothing
    String cookie = browser.sessionCookie();
    assertThat(pause(cookie, "back=/ui/").status()).isEqualTo(403);
    assertThat(pause(cookie, "_csrf=forged&back=/ui/").status()).isEqualTo(403);
    assertThat(queueState()).isEqualTo("running");
    String csrf = browser.find("input[name='_csrf']").getAttribute("value");
    assertThat(pause(cookie, "_csrf=" + csrf + "&back=/ui/").status()).isEqualTo(303);
    assertThat(queueState()).isEqualTo("paused");
  }

  @Test
  void parallelLanesShowSideBySide() throws Exception {
    ci.hold(true);
    create(api, name, 2);
    update("\"state\":\"paused\",\"mode\":\"parallel\"");
    for (long pr = 1; pr <= 5; pr++) {
      boolean server = pr <= 3;
      ObjectId head =
          git.openPr(
              pr, "Change " + pr, "dev" + pr, (server ? "api-" : "web-") + pr + ".txt", "x\n");
      QueueSteps.impactedTargets(
          api, name, pr, head.name(), server ? "[\"//api:server\"]" : "[\"//web:app\"]");
      submit(api, name, pr);
    }
    update("\"state\":\"running\"");
    for (long pr : List.of(1L, 2L, 4L, 5L)) {
      awaitState(api, name, pr, "testing");
    }

    browser.signIn(queuePath(), api.token());
    browser.await().until(d -> browser.all("svg.graph g.run").size() == 4);
    String table = browser.text("#runs table");
    assertThat(table).contains("lane 1").contains("lane 2");
    assertThat(table.indexOf("#1")).as("lanes in queue order").isLessThan(table.indexOf("#4"));
    assertThat(browser.text("#pr-3"))
        .contains("The lanes its impacted targets overlap have no free test slot");
    browser.screenshot("queue-parallel");
    accessible("the queue page in parallel mode");
    browser.open(queuePath() + "/pulls/3");
    assertThat(browser.text("#pr-waiting"))
        .startsWith("Waiting: The lanes its impacted targets overlap have no free test slot");

    ci.hold(false);
    for (long pr = 1; pr <= 5; pr++) {
      awaitState(api, name, pr, "merged");
    }
  }

  @Test
  void aBatchBeingBisectedShowsItsHalves() throws Exception {
    ci.hold(true);
    create(api, name, 2);
    update(
        "\"state\":\"paused\",\"batch\":true,\"batchingMinSize\":4,"
            + "\"batchingMaxWaitTimeMinutes\":0,"
            + "\"optimizationMode\":\"bisection_skip_redundant_tests\"");
    for (long pr = 1; pr <= 4; pr++) {
      String file = pr == 3 ? CiSimulator.BROKEN : "f" + pr + ".txt";
      git.openPr(pr, "Change " + pr, "dev" + pr, file, "x\n");
      submit(api, name, pr);
    }
    update("\"state\":\"running\"");
    for (long pr = 1; pr <= 4; pr++) {
      awaitState(api, name, pr, "testing");
    }
    // the batch goes red: it is split in halves, each tested on the same base
    assertThat(ci.reportNow(tree -> tree.containsKey(CiSimulator.BROKEN))).isPositive();
    Awaitility.await()
        .atMost(QueueSteps.PATIENCE)
        .until(() -> events().stream().anyMatch(e -> e.path("is_bisection").asBoolean()));

    browser.signIn(queuePath(), api.token());
    browser.await().until(d -> browser.all("svg.graph g.run.bisection").size() == 2);
    assertThat(browser.text("#runs table")).contains("bisection");
    browser.screenshot("queue-bisection");
    accessible("the queue page during a bisection");

    ci.hold(false);
    for (long pr : List.of(1L, 2L, 4L)) {
      awaitState(api, name, pr, "merged");
    }
    awaitState(api, name, 3, "failed");
  }

  @Test
  void aPauseAndAFreezeMadeElsewhereShowOnAnOpenPageWithoutAReload() {
    create(api, name, 1);
    browser.signIn(queuePath(), api.token());
    browser.awaitLive();
    browser.markDocument();
    assertThat(browser.text("#queue-state .badge")).isEqualTo("running");

    // queue.updated and queue.frozen reach the page through the events topic
    update("\"state\":\"paused\"");
    browser.await().until(d -> browser.text("#queue-state .badge").equals("paused"));
    assertThat(api.post("/v1/freezeQueue", Api.body(name, "\"reason\":\"release 4.2\"")).status())
        .isEqualTo(200);
    browser.await().until(d -> browser.all("#landing-gate").size() == 1);
    assertThat(browser.text("#landing-gate")).contains("release 4.2");
    assertThat(browser.reloaded()).as("the page followed the queue without a reload").isFalse();
  }

  @Test
  void theAdminPicksAnOrganizationToLookAt() {
    create(api, name, 1);
    browser.signIn("/ui/", stack.admin().token());
    assertThat(browser.text("main h1")).isEqualTo("Organizations");
    accessible("the organizations");

    browser.click("form[action='/ui/actions/look-at'] input[value='acme-org'] ~ button");
    browser.await().until(d -> browser.path().equals("/ui/"));
    assertThat(browser.text("#queues")).contains(name);
  }

  @Test
  void aRevokedTokenEndsItsSessionsAndCannotSignInAgain() {
    Stack.Organization other = stack.otherOrganization();
    String token = other.api().token();
    browser.signIn("/ui/", token);
    String cookie = browser.sessionCookie();

    Api.Response revoked =
        stack.admin().post("/admin/v1/revokeApiToken", "{\"token\":\"" + token + "\"}");
    assertThat(revoked.status()).as(revoked.body()).isEqualTo(200);

    // every replica checks the session's token again within seconds (API.md §8)
    Awaitility.await()
        .atMost(QueueSteps.PATIENCE)
        .until(
            () -> api.send(api.request("/ui/").setHeader("cookie", cookie).GET()).status() == 303);
    browser.open("/ui/webhooks");
    assertThat(browser.path()).startsWith("/ui/sign-in?next=").contains("webhooks");
    browser.find("#token").sendKeys(token);
    browser.find("form[action='/ui/sign-in'] button").click();
    browser.await().until(d -> browser.all("#sign-in-error").size() == 1);
    assertThat(browser.text("#sign-in-error")).endsWith(".");
    assertThat(browser.driver().manage().getCookieNamed("trainyard_session")).isNull();
    accessible("the sign-in page with its error");
  }

  private Api.Response pause(String cookie, String form) {
    return api.send(
        api.request("/ui/actions/queues/github.com/acme/" + name + "/main/pause")
            .setHeader("cookie", cookie)
            .setHeader("content-type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(form)));
  }

  private String queueState() {
    return api.post("/v1/getQueue", Api.body(name, "")).json().get("state").asString();
  }

  @Test
  void aFailedPullRequestShowsWhyAndTheLinksEventsCarryLeadToIt() throws Exception {
    create(api, name, 2);
    git.openPr(1, "Break the build", "bob", CiSimulator.BROKEN, "x\n");
    submit(api, name, 1);
    awaitState(api, name, 1, "failed");

    String details = first(events(), "pull_request.failed", 1).get("http_details_url").asString();
    browser.signIn("/ui/", api.token());
    // the link names the public URL; this stack listens on a port of its own
    browser.open(java.net.URI.create(details).getRawPath());

    // the link keeps its organization: a session of another one would get 404 there
    assertThat(browser.path()).isEqualTo(queuePath() + "/pulls/1?org=" + TestStack.ORG);
    assertThat(browser.text("#pr-state-value")).isEqualTo("failed");
    assertThat(browser.text("#timeline")).contains("TEST_RUN_REQUIRED_STATUS_FAILED");
    assertThat(browser.text("#pr-runs")).contains("ci/test: failure");
    assertThat(browser.text("#pr-acts")).contains("submitPullRequest");
    accessible("a failed PR's page");

    browser.open("/ui/audit");
    assertThat(browser.text("#main")).contains("submitPullRequest").contains("createQueue");
    accessible("the audit log");
  }

  @Test
  void aFlakyTestIsQuarantinedFromItsPage() throws Exception {
    for (String outcome : List.of("test_total:F", "test_total:P")) {
      Multipart form =
          Multipart.upload(name, "c0ffee", "main", null)
              .file("file", "pytest.xml", Reports.pytest("tests/test_total.py", List.of(outcome)));
      Api.Response r = form.uploadWith(api);
      assertThat(r.status()).as(r.body()).isEqualTo(200);
    }
    String listing = "/ui/flaky-tests/github.com/acme/" + name;

    browser.signIn(listing, api.token());
    assertThat(browser.text("#tests")).contains("test_total").contains("flaky");
    accessible("the unhealthy tests");
    browser.click("#tests a");
    browser.await().until(d -> browser.all("#quarantined").size() == 1);
    assertThat(browser.text("#quarantined")).isEqualTo("no");
    assertThat(browser.text("#test")).contains("failed").contains("passed");
    accessible("a test's page");

    browser.click("input[value='ALWAYS_QUARANTINE']");
    browser.find("#reason").sendKeys("fails on Tuesdays");
    browser.click("form[action$='/quarantine'] button");

    browser.await().until(d -> browser.text("#quarantined").equals("yes"));
    String repo =
        "{\"repo\":{\"host\":\"github.com\",\"owner\":\"acme\",\"name\":\"" + name + "\"}}";
    assertThat(api.post("/v1/flaky-tests/get-quarantine-config", repo).body())
        .contains("test_total");
  }

  @Test
  void aDeliveryIsRedeliveredFromTheWebhooksPage() throws Exception {
    try (WebhookReceiver receiver = new WebhookReceiver()) {
      Api.Response created =
          api.post(
              "/v1/webhooks/createEndpoint",
              "{\"url\":\"" + receiver.url() + "\",\"eventTypes\":[\"pull_request.*\"]}");
      assertThat(created.status()).as(created.body()).isEqualTo(200);
      create(api, name, 1);
      QueueSteps.landPrs(api, git, name, 1);
      Awaitility.await().atMost(QueueSteps.PATIENCE).until(() -> receiver.delivered().size() >= 3);
      int before = receiver.received().size();

      browser.signIn("/ui/webhooks", api.token());
      assertThat(browser.text("#endpoints")).contains(receiver.url());
      assertThat(browser.text("#deliveries")).contains("pull_request.merged").contains("200");
      accessible("the webhooks page");
      String row =
          browser
              .await()
              .until(
                  d ->
                      browser.all("#deliveries tbody tr").stream()
                          .filter(r -> r.getText().contains("pull_request.merged"))
                          .map(r -> r.getAttribute("id"))
                          .findFirst()
                          .orElse(null));
      browser.click("[id='" + row + "'] form[action$='/redeliver'] button");

      Awaitility.await()
          .atMost(QueueSteps.PATIENCE)
          .until(() -> receiver.received().size() > before);
      WebhookReceiver.Received again = receiver.received().get(receiver.received().size() - 1);
      assertThat(again.body()).contains("pull_request.merged");
      assertThat(browser.path()).isEqualTo("/ui/webhooks");
      assertThat(row).startsWith("delivery-");

      browser.click("form[action$='/rotate-secret'] button");
      browser.await().until(d -> browser.path().equals("/ui/actions/webhooks/rotate-secret"));
      assertThat(browser.text("code.secret")).startsWith("whsec_");
      accessible("the new secret's page");
    }
  }

  @Test
  void anotherOrganizationSeesNoneOfItAndAFormWithoutItsTokenChangesNothing() throws Exception {
    create(api, name, 1);
    QueueSteps.landPrs(api, git, name, 1);
    Stack.Organization other = stack.otherOrganization();

    browser.signIn("/ui/", other.api().token());
    assertThat(browser.text("main")).doesNotContain(name);
    for (String page :
        List.of(queuePath(), queuePath() + "/pulls/1", "/ui/flaky-tests/github.com/acme/" + name)) {
      browser.open(page);
      String text = browser.text("main");
      assertThat(text).as(page).doesNotContain("Add file 1");
      if (!page.startsWith("/ui/flaky-tests")) {
        assertThat(browser.text("h1")).as(page).isEqualTo("Not found");
      }
    }
    accessible("the not-found page");

    // the other organization's own session and CSRF token: the first one's queue is not its own
    String cookie = browser.sessionCookie();
    String csrf = browser.find("input[name='_csrf']").getAttribute("value");
    assertThat(pause(cookie, "_csrf=" + csrf + "&back=/ui/").status()).isEqualTo(404);
    assertThat(queueState()).isEqualTo("running");

    // signing out ends the session: the cookie leads to the sign-in page from then on
    browser.find("form[action='/ui/sign-out'] button").click();
    browser.await().until(d -> browser.path().startsWith("/ui/sign-in"));
    Api.Response after = api.send(api.request("/ui/").setHeader("cookie", cookie).GET());
    assertThat(after.status()).isEqualTo(303);
    assertThat(after.headers().firstValue("location").orElse("")).startsWith("/ui/sign-in");
  }
}

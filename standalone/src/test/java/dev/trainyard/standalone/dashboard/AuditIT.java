package dev.trainyard.standalone.dashboard;

import static dev.trainyard.standalone.support.DashboardClient.get;
import static dev.trainyard.standalone.support.DashboardClient.signIn;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.json.Json;
import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.QueueSteps;
import dev.trainyard.standalone.support.Stack;
import dev.trainyard.standalone.support.TestStack;
import dev.trainyard.standalone.support.WebhookReceiver;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The audit log (issue 50 item 3) over real sockets: who did what through the API and the
 * dashboard, refusals included, listed by {@code listAuditEvents} with keyset paging and only to
 * the organization's administrators, named on the PR's page; and a viewer's session that cannot
 * act.
 */
class AuditIT {
  private static final Pattern CSRF = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");
  private final TestStack stack = TestStack.shared();

  private static List<JsonNode> events(Api admin, String filter) {
    Api.Response page = admin.post("/v1/listAuditEvents", "{" + filter + "}");
    assertThat(page.status()).as(page.body()).isEqualTo(200);
    List<JsonNode> out = new ArrayList<>();
    page.json().get("auditEvents").forEach(out::add);
    return out;
  }

  @Test
  void anApiCancelAndARefusalAreRecordedWithWhoWhatWhereAndTheAnswer() {
    Stack.Organization org = stack.otherOrganization();
    Api admin = org.api();
    Api ci = stack.token(org, "operator", "CI of rocket");
    Api viewer = stack.token(org, "viewer", "wallboard");
    String repo = Api.uniqueRepo();
    QueueSteps.create(admin, repo, 1);
    QueueSteps.submit(admin, repo, 8);

    assertThat(
            ci.send(
                    ci.request("/v1/cancelPullRequest")
                        .setHeader("user-agent", "merge-action/2.1")
                        .POST(HttpRequest.BodyPublishers.ofString(Api.prBody(repo, 8))))
                .status())
        .isEqualTo(200);
    assertThat(viewer.post("/v1/restartTestsOnPullRequest", Api.prBody(repo, 8)).status())
        .isEqualTo(403);

    List<JsonNode> onPr = events(admin, "\"prNumber\":8");
    assertThat(onPr)
        .extracting(e -> e.get("action").asString())
        .containsExactly("cancelPullRequest", "submitPullRequest");
    JsonNode cancel = onPr.get(0);
    assertThat(cancel.get("actor").get("name").asString()).isEqualTo("CI of rocket");
    assertThat(cancel.get("actor").get("role").asString()).isEqualTo("operator");
    assertThat(cancel.get("actor").get("id").asString()).matches("token:[0-9a-f]{12}");
    assertThat(cancel.get("via").asString()).isEqualTo("api");
    assertThat(cancel.get("repo").get("name").asString()).isEqualTo(repo);
    assertThat(cancel.get("targetBranch").asString()).isEqualTo("main");
    assertThat(cancel.get("ip").asString()).isEqualTo("127.0.0.1");
    assertThat(cancel.get("userAgent").asString()).isEqualTo("merge-action/2.1");
    assertThat(cancel.get("status").asInt()).isEqualTo(200);
    assertThat(cancel.get("outcome").isNull()).isTrue();
    // refused before its body was read: it names who and what, not the PR
    List<JsonNode> byCi =
        events(admin, "\"actor\":\"" + cancel.get("actor").get("id").asString() + "\"");
    assertThat(byCi).as("the CI token did one thing").hasSize(1);
    String viewerId =
        events(admin, "\"action\":\"restartTestsOnPullRequest\"")
            .get(0)
            .get("actor")
            .get("id")
            .asString();
    JsonNode refused = events(admin, "\"actor\":\"" + viewerId + "\"").get(0);
    assertThat(refused.get("action").asString()).isEqualTo("restartTestsOnPullRequest");
    assertThat(refused.get("actor").get("name").asString()).isEqualTo("wallboard");
    assertThat(refused.get("status").asInt()).isEqualTo(403);
    assertThat(refused.get("outcome").asString()).startsWith("the viewer role may not");

    assertThat(viewer.post("/v1/listAuditEvents", "{}").status())
        .as("only administrators read the log")
        .isEqualTo(403);
    // reads change nothing and are not recorded, the forwarded flaky-tests ones neither
    assertThat(admin.post("/v1/getQueue", Api.body(repo, "")).status()).isEqualTo(200);
    assertThat(admin.post("/v1/flaky-tests/get-quarantine-config", Api.body(repo, "")).status())
        .isEqualTo(200);
    assertThat(events(admin, ""))
        .extracting(e -> e.get("action").asString())
        .doesNotContain("getQueue", "flaky-tests/get-quarantine-config", "listAuditEvents");
    assertThat(events(stack.otherOrganization().api(), "\"prNumber\":8"))
        .as("another organization's log has none of it")
        .isEmpty();
  }

  @Test
  void pagesWalkTheWholeLogNewestFirstWithoutRepeats() {
    Stack.Organization org = stack.otherOrganization();
    Api admin = org.api();
    String repo = Api.uniqueRepo();
    QueueSteps.create(admin, repo, 1);
    for (int pr = 1; pr <= 6; pr++) {
      QueueSteps.submit(admin, repo, pr);
    }

    Set<String> seen = new HashSet<>();
    List<Integer> sizes = new ArrayList<>();
    String cursor = "";
    String lastAt = "9999";
    do {
      Api.Response page =
          admin.post("/v1/listAuditEvents", "{\"take\":3,\"cursor\":\"" + cursor + "\"}");
      assertThat(page.status()).as(page.body()).isEqualTo(200);
      int size = 0;
      for (JsonNode e : page.json().get("auditEvents")) {
        assertThat(seen.add(e.get("id").asString())).as("no event twice").isTrue();
        assertThat(e.get("at").asString()).isLessThanOrEqualTo(lastAt);
        lastAt = e.get("at").asString();
        size++;
      }
      sizes.add(size);
      JsonNode next = page.json().get("nextCursor");
      cursor = next.isNull() ? null : next.asString();
    } while (cursor != null);

    assertThat(seen)
        .as("the organization's creation and its token (admin API), createQueue, six submits")
        .hasSize(9);
    assertThat(sizes).containsExactly(3, 3, 3, 0);
    assertThat(admin.post("/v1/listAuditEvents", "{\"cursor\":\"not-one\"}").status())
        .isEqualTo(400);
  }

  /**
   * The filters' limits (1 to 255 characters, no control characters): the server refuses what
   * passes them with a 400, and the document refuses it too (the exchange check only catches the
   * document refusing what the server accepts, not the reverse).
   */
  @Test
  void aFilterPastItsLimitsIsRefusedByTheServerAndTheDocumentAlike() {
    Api admin = stack.otherOrganization().api();
    for (String filter :
        List.of(
            "\"actor\":\"" + "a".repeat(256) + "\"",
            "\"action\":\"a\\u0001b\"",
            "\"action\":\"\"")) {
      String body = "{" + filter + "}";
      Api.Response refused = admin.post("/v1/listAuditEvents", body);
      assertThat(refused.status()).as(body).isEqualTo(400);
      assertThat(
              Api.contract()
                  .checkRequest("POST", "/v1/listAuditEvents", Json.mapper().readTree(body)))
          .as("the document refuses %s", body)
          .isNotEmpty();
    }
  }

  @Test
  void aDashboardCancelIsRecordedAndNamedOnThePrPageAndAViewerCannotCancel() {
    Stack.Organization org = stack.otherOrganization();
    Api admin = org.api();
    Api operator = stack.token(org, "operator", "Dana Operator");
    Api viewer = stack.token(org, "viewer", "Vic Viewer");
    String repo = Api.uniqueRepo();
    QueueSteps.create(admin, repo, 1);
    QueueSteps.submit(admin, repo, 4);
    QueueSteps.submit(admin, repo, 5);
    String queuePage = "/ui/queues/github.com/acme/" + repo + "/main";
    String cancel = "/ui/actions/queues/github.com/acme/" + repo + "/main/cancel";

    String vic = signIn(viewer, viewer.token());
    Api.Response refused = postForm(viewer, cancel, vic, queuePage, 5);
    assertThat(refused.status()).isEqualTo(403);
    assertThat(refused.body()).contains("the viewer role may not operate queues");
    assertThat(QueueSteps.pr(admin, repo, 5).get("state").asString()).isNotEqualTo("cancelled");
    JsonNode vicRefused =
        events(admin, "\"action\":\"cancelPullRequest\"").stream()
            .filter(e -> e.get("actor").get("name").asString().equals("Vic Viewer"))
            .findFirst()
            .orElseThrow();
    assertThat(vicRefused.get("via").asString()).isEqualTo("dashboard");
    assertThat(vicRefused.get("status").asInt()).isEqualTo(403);

    String dana = signIn(operator, operator.token());
    assertThat(postForm(operator, cancel, dana, queuePage, 4).status()).isEqualTo(303);

    JsonNode recorded = events(admin, "\"prNumber\":4,\"action\":\"cancelPullRequest\"").get(0);
    assertThat(recorded.get("via").asString()).isEqualTo("dashboard");
    assertThat(recorded.get("actor").get("name").asString()).isEqualTo("Dana Operator");
    assertThat(recorded.get("status").asInt()).isEqualTo(303);
    String pullPage = get(admin, queuePage + "/pulls/4", signIn(admin, admin.token())).body();
    assertThat(pullPage).contains("Who acted on it").contains("Dana Operator");
  }

  private static Api.Response postForm(
      Api api, String action, String cookie, String page, long pr) {
    Matcher csrf = CSRF.matcher(get(api, page, cookie).body());
    assertThat(csrf.find()).isTrue();
    return api.send(
        api.request(action)
            .setHeader("cookie", cookie)
            .setHeader("content-type", "application/x-www-form-urlencoded")
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    "_csrf=" + csrf.group(1) + "&pr=" + pr + "&back=" + page)));
  }

  @Test
  void anEndpointThatAsksForTheAuditLogReceivesItsEntriesAndAnUnannouncedOneIsSweptUp()
      throws Exception {
    Stack.Organization org = stack.otherOrganization();
    Api admin = org.api();
    try (WebhookReceiver audit = new WebhookReceiver();
        WebhookReceiver everything = new WebhookReceiver()) {
      Api.Response asked =
          admin.post(
              "/v1/webhooks/createEndpoint",
              "{\"url\":\"" + audit.url() + "\",\"eventTypes\":[\"audit_event.*\"]}");
      assertThat(asked.status()).as(asked.body()).isEqualTo(200);
      assertThat(
              admin
                  .post("/v1/webhooks/createEndpoint", "{\"url\":\"" + everything.url() + "\"}")
                  .status())
          .isEqualTo(200);
      String repo = Api.uniqueRepo();
      QueueSteps.create(admin, repo, 1);
      assertThat(admin.post("/v1/updateQueue", Api.body(repo, "\"state\":\"paused\"")).status())
          .isEqualTo(200);

      JsonNode created = awaitEntry(audit, e -> e.get("action").asString().equals("createQueue"));
      assertThat(created.get("repo").get("name").asString()).isEqualTo(repo);
      assertThat(created.get("actor").get("role").asString()).isEqualTo("admin");
      assertThat(created.get("status").asInt()).isEqualTo(200);

      // an entry stored, then its replica stopped before announcing it: a sweep announces it
      String planted = "planted-" + java.util.UUID.randomUUID();
      java.time.Instant minuteAgo = java.time.Instant.now().minusSeconds(60);
      try (com.mongodb.client.MongoClient mongo =
          com.mongodb.client.MongoClients.create(stack.infrastructure().mongoUri())) {
        mongo
            .getDatabase("trainyard")
            .getCollection("audit_events")
            .insertOne(
                new org.bson.Document("_id", planted)
                    .append("org", org.slug())
                    .append("at", java.util.Date.from(minuteAgo))
                    .append("expiresAt", java.util.Date.from(minuteAgo.plusSeconds(3600)))
                    .append(
                        "actor",
                        new org.bson.Document("id", "person:oidc:ann")
                            .append("name", "ann@example.test")
                            .append("role", "operator"))
                    .append("via", "dashboard")
                    .append("ip", "203.0.113.7")
                    .append("userAgent", "Mozilla/5.0")
                    .append("action", "cancelPullRequest")
                    .append("status", 200)
                    .append("announcePending", java.util.Date.from(minuteAgo)));
      }
      JsonNode swept = awaitEntry(audit, e -> e.get("id").asString().equals(planted));
      assertThat(swept.get("actor").get("name").asString()).isEqualTo("ann@example.test");

      // an endpoint that named no types gets the queue's events (the pause), never the audit log's
      Awaitility.await().atMost(QueueSteps.PATIENCE).until(() -> !everything.delivered().isEmpty());
      awaitEntry(audit, e -> e.get("action").asString().equals("updateQueue"));
      assertThat(everything.delivered())
          .extracting(r -> Json.mapper().readTree(r.body()).get("type").asString())
          .noneMatch(type -> type.startsWith("audit_event."));
    }
  }

  /** The entry of the first {@code audit_event.recorded} delivery {@code wanted} accepts. */
  private static JsonNode awaitEntry(
      WebhookReceiver receiver, java.util.function.Predicate<JsonNode> wanted) {
    return Awaitility.await()
        .atMost(java.time.Duration.ofSeconds(90))
        .until(
            () ->
                receiver.delivered().stream()
                    .map(r -> Json.mapper().readTree(r.body()))
                    .filter(b -> b.get("type").asString().equals("audit_event.recorded"))
                    .map(b -> b.get("audit_event"))
                    .filter(wanted)
                    .findFirst()
                    .orElse(null),
            java.util.Objects::nonNull);
  }
}

package dev.trainyard.standalone.github;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.EventLog;
import dev.trainyard.standalone.support.GithubDeliveries;
import dev.trainyard.standalone.support.GithubDeliveries.Example;
import dev.trainyard.standalone.support.OwnStack;
import dev.trainyard.standalone.support.QueueSteps;
import dev.trainyard.standalone.support.RawRequest;
import dev.trainyard.standalone.support.TestStack;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The GitHub App's webhook receiver (API.md §6) against GitHub's own published example payloads:
 * every example of every handled event type is taken with a valid signature and refused (401) when
 * tampered with or unsigned; unknown types are answered 200 and change nothing; an installation
 * serves the organization it is bound to and no other; a delivery redelivered is applied once.
 */
class GithubWebhookIT extends OwnStack {
  private static final String SECRET = "it-is-a-secret-" + UUID.randomUUID();
  private static final String PREVIOUS = "the-secret-before-" + UUID.randomUUID();
  static final Set<String> HANDLED =
      Set.of(
          "installation",
          "installation_repositories",
          "pull_request",
          "pull_request_review",
          "issue_comment",
          "check_run",
          "check_suite",
          "status",
          "push");
  private GithubDeliveries github;
  private Api admin;

  @Override
  protected Map<String, Object> properties() {
    return Map.of(
        "trainyard.github.webhook-secret",
        SECRET,
        "trainyard.github.webhook-previous-secret",
        PREVIOUS,
        "trainyard.github.default-org",
        TestStack.ORG,
        "trainyard.github.default-org-accounts",
        "Acme-Corp, other-trusted");
  }

  @BeforeEach
  void clients() {
    github = new GithubDeliveries(stack.api(), SECRET);
    admin = stack.admin();
  }

  @Test
  void everyPublishedExampleIsTakenSignedAndRefusedTamperedOrUnsigned() throws Exception {
    List<Example> examples = GithubDeliveries.examples();
    assertThat(examples.stream().map(Example::event).distinct()).containsAll(HANDLED);
    int handled = 0;
    for (Example example : examples) {
      byte[] body = GithubDeliveries.bytes(example.payload());
      String delivery = UUID.randomUUID().toString();
      byte[] tampered = Arrays.copyOf(body, body.length + 1);
      tampered[body.length] = ' ';
      Api.Response forged = github.post(example.event(), delivery, tampered, github.sign(body));
      assertThat(forged.status()).as("tampered " + example).isEqualTo(401);
      assertThat(forged.body()).contains("X-Hub-Signature-256");
      assertThat(github.post(example.event(), delivery, body, null).status())
          .as("unsigned " + example)
          .isEqualTo(401);
      Api.Response taken = github.deliver(example.event(), delivery, body);
      assertThat(taken.status()).as(example + ": " + taken.body()).isEqualTo(200);
      handled += HANDLED.contains(example.event()) ? 1 : 0;
    }
    assertThat(handled).as("examples of the handled event types").isGreaterThan(70);
  }

  /**
   * During a rotation of the App's webhook secret GitHub may still sign with the old one: a
   * delivery signed with {@code TRAINYARD_GITHUB_WEBHOOK_PREVIOUS_SECRET} is taken, one signed with
   * any other secret is not. Before, every delivery between the change on GitHub and the restart
   * with the new secret was refused and lost.
   */
  @Test
  void aDeliverySignedWithThePreviousSecretIsTakenDuringARotation() {
    byte[] body = "{\"zen\":\"Half measures are as bad as nothing at all.\"}".getBytes();
    GithubDeliveries before = new GithubDeliveries(stack.api(), PREVIOUS);
    GithubDeliveries stranger = new GithubDeliveries(stack.api(), "guessed-" + UUID.randomUUID());

    assertThat(before.deliver("ping", UUID.randomUUID().toString(), body).status()).isEqualTo(200);
    assertThat(stranger.deliver("ping", UUID.randomUUID().toString(), body).status())
        .isEqualTo(401);
  }

  @Test
  void deliveriesWithoutTheirHeadersOrWithABrokenBodyAreBadRequests() {
    byte[] body = "{\"zen\":\"Keep it logically awesome.\"}".getBytes();
    assertThat(github.post("ping", "", body, github.sign(body)).status()).isEqualTo(400);
    byte[] broken = "{not json".getBytes();
    Api.Response notJson = github.deliver("ping", UUID.randomUUID().toString(), broken);
    assertThat(notJson.status()).isEqualTo(400);
    assertThat(notJson.body()).contains("not JSON");
    assertThat(github.deliver("ping", UUID.randomUUID().toString(), body).status()).isEqualTo(200);
  }

  /**
   * Anyone can reach the receiver, so it reads no more than its own 5 MiB before refusing: a
   * declared length past it is refused before anything is read, a chunked body at the limit (the
   * signature, computed as the body streams, is never reached). Before, both were read whole (up to
   * 20 MiB) and answered 401.
   */
  @Test
  void anUnsignedBodyPastTheReceiversSmallLimitIsRefusedAtTheLimit() throws Exception {
    long size = 12L * 1024 * 1024;
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Content-Type", "application/json");
    headers.put("X-GitHub-Event", "ping");
    headers.put("X-GitHub-Delivery", UUID.randomUUID().toString());
    headers.put("X-Hub-Signature-256", "sha256=" + "0".repeat(64));
    byte[] head = "{\"zen\":\"".getBytes(StandardCharsets.UTF_8);
    byte[] filler = "z".getBytes(StandardCharsets.UTF_8);
    int port = stack.services().gatewayPort();
    for (boolean chunked : List.of(false, true)) {
      RawRequest.Answer answer =
          RawRequest.post(port, "/v1/scm/github/webhook", headers, head, filler, size, chunked);

      assertThat(answer.status()).as(answer.body()).isEqualTo(413);
      assertThat(answer.body()).contains("limit of 5 MiB");
      if (!chunked) {
        assertThat(answer.bytesSent()).as("refused before it is read").isLessThan(size);
      }
    }
  }

  /**
   * A new installation is bound to {@code TRAINYARD_GITHUB_DEFAULT_ORG} only for an account on the
   * allowlist; a stranger's installation of a public App waits, unbound, for an admin. Before,
   * every new installation was bound, whoever made it.
   */
  @Test
  void aNewInstallationIsBoundByDefaultOnlyForAnAccountOnTheAllowlist() throws Exception {
    long trusted = 91_000_000L + (long) (Math.random() * 1_000_000);
    long stranger = trusted + 1;
    // the stranger's first: once the trusted one is bound, the stranger's was applied too
    installed(stranger, "mallory");
    installed(trusted, "acme-corp");
    String other = stack.otherOrganization().slug();

    Awaitility.await()
        .atMost(QueueSteps.PATIENCE)
        .until(
            () ->
                admin
                    .post(
                        "/admin/v1/bindGithubInstallation",
                        "{\"org\":\"" + other + "\",\"installationId\":" + trusted + "}")
                    .status(),
            status -> status == 409);
    // the admin sees whose installation waits before binding it
    Api.Response listed = admin.post("/admin/v1/listGithubInstallations", "{}");
    assertThat(listed.status()).isEqualTo(200);
    Map<Long, JsonNode> byId = new java.util.HashMap<>();
    listed.json().get("installations").forEach(i -> byId.put(i.get("installationId").asLong(), i));
    assertThat(byId.get(stranger).get("account").asString()).isEqualTo("mallory");
    assertThat(byId.get(stranger).get("org").isNull()).isTrue();
    assertThat(byId.get(trusted).get("account").asString()).isEqualTo("acme-corp");
    assertThat(byId.get(trusted).get("org").asString()).isEqualTo(TestStack.ORG);
    assertThat(
            admin
                .post(
                    "/admin/v1/bindGithubInstallation",
                    "{\"org\":\"" + other + "\",\"installationId\":" + stranger + "}")
                .status())
        .as("the stranger's installation waits unbound: an admin may bind it")
        .isEqualTo(200);
  }

  /** GitHub announces installation {@code id} on {@code account}; waits until it is stored. */
  private void installed(long id, String account) throws Exception {
    ObjectNode payload = GithubDeliveries.example("installation", "created").payload();
    ((ObjectNode) payload.path("installation")).put("id", id);
    ((ObjectNode) payload.path("installation").path("account")).put("login", account);
    String delivery = UUID.randomUUID().toString();
    assertThat(github.deliver("installation", delivery, GithubDeliveries.bytes(payload)).status())
        .isEqualTo(200);
  }

  @Test
  void anInstallationServesOneOrganizationAtATime() {
    long id = 90_000_000L + (long) (Math.random() * 1_000_000);
    String body = "{\"org\":\"" + TestStack.ORG + "\",\"installationId\":" + id + "}";
    assertThat(stack.api().post("/admin/v1/bindGithubInstallation", body).status()).isEqualTo(401);
    assertThat(admin.post("/admin/v1/bindGithubInstallation", body).status()).isEqualTo(200);
    assertThat(admin.post("/admin/v1/bindGithubInstallation", body).status())
        .as("again, to the same organization")
        .isEqualTo(200);
    String other = stack.otherOrganization().slug();
    Api.Response taken =
        admin.post(
            "/admin/v1/bindGithubInstallation",
            "{\"org\":\"" + other + "\",\"installationId\":" + id + "}");
    assertThat(taken.status()).isEqualTo(409);
    assertThat(taken.body()).contains("bound to another organization");
    assertThat(
            admin
                .post(
                    "/admin/v1/bindGithubInstallation",
                    "{\"org\":\"nobody\",\"installationId\":" + (id + 1) + "}")
                .status())
        .isEqualTo(404);
    assertThat(
            admin
                .post(
                    "/admin/v1/bindGithubInstallation",
                    "{\"org\":\"" + other + "\",\"installationId\":\"7\"}")
                .status())
        .isEqualTo(400);
    String unbind = "{\"installationId\":" + id + "}";
    assertThat(admin.post("/admin/v1/unbindGithubInstallation", unbind).status()).isEqualTo(200);
    assertThat(admin.post("/admin/v1/unbindGithubInstallation", unbind).status()).isEqualTo(404);
    assertThat(
            admin
                .post(
                    "/admin/v1/bindGithubInstallation",
                    "{\"org\":\"" + other + "\",\"installationId\":" + id + "}")
                .status())
        .as("free again")
        .isEqualTo(200);
  }

  @Test
  void aLabelSubmitsOnceHoweverOftenItIsDeliveredAndOnlyForTheBoundOrganization() throws Exception {
    Example labeled = GithubDeliveries.example("pull_request", "labeled");
    ObjectNode payload = labeled.payload();
    long installation = payload.path("installation").path("id").asLong();
    String owner = payload.path("repository").path("owner").path("login").asString();
    String name = payload.path("repository").path("name").asString();
    String base = payload.path("pull_request").path("base").path("ref").asString();
    String label = payload.path("label").path("name").asString();
    long number = payload.path("number").asLong();
    String repo =
        "{\"repo\":{\"host\":\"github.com\",\"owner\":\""
            + owner
            + "\",\"name\":\""
            + name
            + "\"},\"targetBranch\":\""
            + base
            + "\"";
    // a person's label needs GitHub to confirm write access, which takes the App's credentials
    // (GithubAppIT); a Bot the queue lists is obeyed without asking
    ObjectNode sender = (ObjectNode) payload.path("sender");
    sender.put("login", "labeller[bot]").put("type", "Bot");
    String settings =
        ",\"labelCommandsEnabled\":true,\"enqueueingLabel\":\""
            + label
            + "\",\"allowedBotSubmitters\":[\"labeller[bot]\"],\"state\":\"paused\"}";
    Api api = stack.api();
    Api stranger = stack.otherOrganization().api();
    for (Api tenant : List.of(api, stranger)) {
      assertThat(tenant.post("/v1/createQueue", repo + "}").status()).isEqualTo(200);
      assertThat(tenant.post("/v1/updateQueue", repo + settings).status()).isEqualTo(200);
    }
    assertThat(
            admin
                .post(
                    "/admin/v1/bindGithubInstallation",
                    "{\"org\":\"" + TestStack.ORG + "\",\"installationId\":" + installation + "}")
                .status())
        .isEqualTo(200);

    // GitHub spells the repository in another case than the queues were created with: the
    // bound organization's queue still gets it (names are case-insensitive), the other one not
    ObjectNode repository = (ObjectNode) payload.path("repository");
    repository.put("name", name.toUpperCase(java.util.Locale.ROOT));
    ((ObjectNode) repository.path("owner")).put("login", owner.toUpperCase(java.util.Locale.ROOT));
    byte[] body = GithubDeliveries.bytes(payload);
    String prBody = repo + ",\"pr\":{\"number\":" + number + "}}";
    // the same payload under an event type trainyard does not handle changes nothing
    assertThat(github.deliver("merge_group", UUID.randomUUID().toString(), body).status())
        .isEqualTo(200);
    assertThat(api.post("/v1/getSubmittedPullRequest", prBody).status()).isEqualTo(404);

    String delivery = UUID.randomUUID().toString();
    // GitHub redelivers: twice at once, then once more after the first was applied
    List<CompletableFuture<Api.Response>> together =
        List.of(
            CompletableFuture.supplyAsync(() -> github.deliver("pull_request", delivery, body)),
            CompletableFuture.supplyAsync(() -> github.deliver("pull_request", delivery, body)));
    for (CompletableFuture<Api.Response> response : together) {
      assertThat(response.get().status()).isEqualTo(200);
    }
    // applied after the answer (GitHub's 10 s are for storing it): the submission follows
    Api.Response submitted =
        Awaitility.await()
            .atMost(QueueSteps.PATIENCE)
            .until(() -> api.post("/v1/getSubmittedPullRequest", prBody), r -> r.status() == 200);
    assertThat(github.deliver("pull_request", delivery, body).status()).isEqualTo(200);
    assertThat(submitted.json().get("isCurrentlySubmittedToQueue").asBoolean()).isTrue();
    assertThat(
            EventLog.readAll(stack.infrastructure().kafkaBootstrap()).stream()
                .filter(e -> e.body().path("repository").path("name").asString("").equals(name))
                .filter(e -> e.body().path("pr_number").asLong(0) == number)
                .map(EventLog.Event::type))
        .as("applied once")
        .containsExactly("pull_request.submitted");
    assertThat(stranger.post("/v1/getSubmittedPullRequest", prBody).status())
        .as("the other organization's queue on the same repository got nothing")
        .isEqualTo(404);

    // removing the label takes the PR out of the queue
    payload.put("action", "unlabeled");
    assertThat(
            github
                .deliver(
                    "pull_request", UUID.randomUUID().toString(), GithubDeliveries.bytes(payload))
                .status())
        .isEqualTo(200);
    Awaitility.await()
        .atMost(QueueSteps.PATIENCE)
        .until(
            () -> api.post("/v1/getSubmittedPullRequest", prBody).json().get("state").asString(),
            "cancelled"::equals);

    // the first signed body again under a new X-GitHub-Delivery, which the signature does not
    // cover: a replay, not GitHub's, and it submits nothing (before, it submitted the PR again)
    assertThat(github.deliver("pull_request", UUID.randomUUID().toString(), body).status())
        .isEqualTo(200);
    Awaitility.await()
        .during(Duration.ofSeconds(3))
        .atMost(Duration.ofSeconds(5))
        .until(
            () -> api.post("/v1/getSubmittedPullRequest", prBody).json().get("state").asString(),
            "cancelled"::equals);
  }
}

package dev.trainyard.standalone.dashboard;

import static dev.trainyard.standalone.support.QueueSteps.awaitState;
import static dev.trainyard.standalone.support.SignOnClient.location;
import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Updates;
import dev.trainyard.gateway.auth.TokenHash;
import dev.trainyard.standalone.queue.QueueScenario;
import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.Browser;
import dev.trainyard.standalone.support.IdentityProviderProcess;
import dev.trainyard.standalone.support.SignOnClient;
import dev.trainyard.standalone.support.TestStack;
import dev.trainyard.worker.scm.github.GithubSimulator;
import dev.trainyard.worker.scm.github.OpenApiContract;
import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bson.Document;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Single sign-on (issue 50 item 1, API.md §8) through a real OpenID Connect provider started for
 * the test (Spring Authorization Server, its own process) and through GitHub's web flow on the
 * simulator: people map to organizations and roles by their groups or teams, a viewer sees and
 * cannot act, an operator's cancel names them in the audit log and on the PR's page, an admin
 * changes settings; a sign-in gets a new session id and ends the browser's earlier one, a callback
 * from another browser, a replayed one, a forged code and a provider's refusal sign no one in, an
 * idle session ends, and the token form is switched off on this deployment.
 */
class SingleSignOnIT extends QueueScenario {
  private static final String ORG = TestStack.ORG;
  private static final Duration IDLE = Duration.ofMinutes(30);
  private static final String PASSWORD = IdentityProviderProcess.PASSWORD;

  /** An organization ada may look at besides acme's; created by the test that needs it. */
  private static final String SECOND_ORG = "beta-org";

  private IdentityProviderProcess provider;
  private GithubSimulator github;

  @Override
  protected Map<String, Object> properties() {
    try {
      github = new GithubSimulator(OpenApiContract.github(), InstantSource.system());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    github.oauthApp(
        "Iv1.trainyard", "github-secret", URI.create("http://127.0.0.1/ui/sign-in/github"));
    github.person("octocat", 583231, List.of("octo-org/release-team", "octo-org/docs"));
    github.person("hubot", 1042, List.of("elsewhere/robots"));
    provider = IdentityProviderProcess.start();
    Map<String, Object> props = new HashMap<>(super.properties());
    props.put("trainyard.sso.oidc.issuer", provider.issuer());
    props.put("trainyard.sso.oidc.client-id", IdentityProviderProcess.CLIENT_ID);
    props.put("trainyard.sso.oidc.client-secret", IdentityProviderProcess.CLIENT_SECRET);
    props.put("trainyard.sso.oidc.display-name", "Example SSO");
    props.put(
        "trainyard.sso.oidc.roles",
        "trainyard-viewers="
            + ORG
            + ":viewer,trainyard-operators="
            + ORG
            + ":operator,trainyard-admins="
            + ORG
            + ":admin,trainyard-admins="
            + SECOND_ORG
            + ":viewer,trainyard-admins=no-such-org:admin");
    props.put("trainyard.sso.github.client-id", "Iv1.trainyard");
    props.put("trainyard.sso.github.client-secret", "github-secret");
    props.put("trainyard.sso.github.web-url", github.api().toString());
    props.put("trainyard.sso.github.api-url", github.api().toString());
    props.put(
        "trainyard.sso.github.roles",
        "Octo-Org/Release-Team=" + ORG + ":operator,octo-org=" + ORG + ":viewer");
    props.put("trainyard.dashboard.token-sign-in", false);
    // every sign-in here comes from 127.0.0.1; DashboardExposureIT tests the throttle
    props.put("trainyard.dashboard.sign-in-per-minute", 100);
    props.put("trainyard.dashboard.session-idle-timeout", IDLE.toString());
    return props;
  }

  @AfterAll
  void stopProviders() {
    if (provider != null) {
      provider.close();
    }
    if (github != null) {
      assertThat(github.problems()).as("GitHub's description").isEmpty();
      github.close();
    }
  }

  private SignOnClient browserless() {
    return new SignOnClient(api.base());
  }

  private HttpResponse<String> page(SignOnClient client, String path) {
    return client.get(path);
  }

  @Test
  void aPersonSignsInUnderANewSessionAndTheBrowsersEarlierOneEnds() {
    SignOnClient client = browserless();
    HttpResponse<String> signedIn = client.signIn("oidc", "vera", PASSWORD);
    assertThat(signedIn.statusCode()).as(signedIn.body()).isEqualTo(303);
    assertThat(location(signedIn)).endsWith("/ui/");
    String vera = client.session();
    assertThat(vera).isNotNull();
    HttpResponse<String> overview = page(client, "/ui/");
    assertThat(overview.statusCode()).isEqualTo(200);
    assertThat(overview.body()).contains("vera@example.test · " + ORG);

    // the same browser signs in again (the provider remembers vera: no form this time): under a
    // new id, and the session it had is over
    assertThat(client.signIn("oidc", "vera", PASSWORD).statusCode()).isEqualTo(303);
    String again = client.session();
    assertThat(again).isNotNull().isNotEqualTo(vera);
    assertThat(page(client, "/ui/").statusCode()).isEqualTo(200);
    HttpResponse<String> earlier = withCookie("/ui/", vera);
    assertThat(earlier.statusCode()).isEqualTo(303);
    assertThat(location(earlier)).contains("/ui/sign-in");
  }

  private HttpResponse<String> withCookie(String path, String session) {
    SignOnClient other = browserless();
    return other.send(path, "trainyard_session=" + session);
  }

  @Test
  void aCallbackFromAnotherBrowserAReplayAForgedCodeAndARefusalSignNoOneIn() {
    SignOnClient started = browserless();
    String callback = location(started.toCallback("oidc", "vera", PASSWORD));
    assertThat(callback).as(started.hops()).contains("/ui/sign-in/oidc/callback?code=");

    // login CSRF: the link carried to another browser does not sign that browser in
    SignOnClient elsewhere = browserless();
    HttpResponse<String> foreign = elsewhere.get(callback);
    assertThat(foreign.statusCode()).isEqualTo(403);
    assertThat(foreign.body()).contains("started in another browser");
    assertThat(elsewhere.session()).isNull();

    assertThat(started.get(callback).statusCode()).as(started.hops()).isEqualTo(303);
    assertThat(started.session()).as(started.hops()).isNotNull();
    // replayed with the state's cookie too (someone who copied both): the code was used
    HttpResponse<String> replayed =
        browserless()
            .send(
                callback,
                "trainyard_sign_in="
                    + URLDecoder.decode(param(callback, "state"), StandardCharsets.UTF_8));
    assertThat(replayed.statusCode()).isEqualTo(400);
    assertThat(replayed.body()).contains("already used");

    SignOnClient codeless = browserless();
    HttpResponse<String> noCode =
        codeless.get("/ui/sign-in/oidc/callback?state=" + state(codeless));
    assertThat(noCode.statusCode()).isEqualTo(400);
    assertThat(noCode.body()).contains("without a code");

    SignOnClient forger = browserless();
    String state = state(forger);
    HttpResponse<String> forged =
        forger.get("/ui/sign-in/oidc/callback?code=forged&state=" + state);
    assertThat(forged.statusCode()).isEqualTo(401);
    assertThat(forged.body()).contains("invalid_grant");
    assertThat(forger.session()).isNull();

    SignOnClient refused = browserless();
    HttpResponse<String> denied =
        refused.get(
            "/ui/sign-in/oidc/callback?error=access_denied&error_description=The+person+said+no&state="
                + state(refused));
    assertThat(denied.statusCode()).isEqualTo(401);
    assertThat(denied.body()).contains("did not sign you in: The person said no");
    assertThat(refused.session()).isNull();
  }

  /** Starts a sign-in and stops before the provider: the state the gateway sent it. */
  private static String state(SignOnClient client) {
    return param(location(client.get("/ui/sign-in/oidc")), "state");
  }

  private static String param(String url, String name) {
    Matcher m = Pattern.compile("[?&]" + name + "=([^&]+)").matcher(url);
    assertThat(m.find()).as(url).isTrue();
    return m.group(1);
  }

  @Test
  void someoneNoRuleMapsIsToldSoAndGetsNoSession() {
    SignOnClient client = browserless();
    HttpResponse<String> answer = client.signIn("oidc", "nobody", PASSWORD);
    assertThat(answer.statusCode()).isEqualTo(403);
    assertThat(answer.body())
        .contains("nobody@example.test")
        .contains("no organization here is mapped");
    assertThat(client.session()).isNull();
  }

  @Test
  void aPersonOfSeveralOrganizationsSwitchesBetweenTheirsOnly() {
    Api.Response created =
        stack.admin().post("/admin/v1/createOrganization", "{\"slug\":\"" + SECOND_ORG + "\"}");
    assertThat(created.status()).as(created.body()).isIn(200, 409);
    String stranger = stack.otherOrganization().slug();
    SignOnClient ada = browserless();
    ada.signIn("oidc", "ada", PASSWORD);
    String first = ada.session();

    HttpResponse<String> choices = ada.get("/ui/organizations");
    assertThat(choices.statusCode()).isEqualTo(200);
    assertThat(choices.body())
        .contains("Look at " + ORG)
        .contains("Look at " + SECOND_ORG)
        .as("a rule's organization that does not exist is not offered")
        .doesNotContain("no-such-org")
        .doesNotContain(stranger);
    String csrf = hidden(choices.body(), "_csrf");
    String key = hidden(choices.body(), "_key");

    HttpResponse<String> refused =
        ada.post("/ui/actions/look-at", "_csrf=" + csrf + "&_key=" + key + "&org=" + stranger);
    assertThat(refused.statusCode()).isEqualTo(404);
    HttpResponse<String> switched =
        ada.post("/ui/actions/look-at", "_csrf=" + csrf + "&_key=" + key + "x&org=" + SECOND_ORG);
    assertThat(switched.statusCode()).as(switched.body()).isEqualTo(303);
    assertThat(ada.session()).as("a new session id").isNotEqualTo(first);
    assertThat(ada.get("/ui/").body()).contains("ada@example.test · " + SECOND_ORG);
    // a viewer there: the audit log is an admin's page
    assertThat(ada.get("/ui/audit").statusCode()).isEqualTo(403);
  }

  private static String hidden(String page, String field) {
    Matcher m = Pattern.compile("name=\"" + field + "\" value=\"([^\"]+)\"").matcher(page);
    assertThat(m.find()).as(field + " on " + page).isTrue();
    return m.group(1);
  }

  @Test
  void theTokenFormIsSwitchedOffAndTheProvidersAreOffered() {
    SignOnClient client = browserless();
    HttpResponse<String> form = client.get("/ui/sign-in");
    assertThat(form.statusCode()).isEqualTo(200);
    assertThat(form.body())
        .contains("Sign in with Example SSO")
        .contains("Sign in with GitHub")
        .doesNotContain("name=\"token\"");
    HttpResponse<String> typed = client.post("/ui/sign-in", "token=" + api.token());
    assertThat(typed.statusCode()).isEqualTo(403);
    assertThat(client.session()).isNull();
    assertThat(client.get("/ui/sign-in/okta").statusCode()).isEqualTo(404);
  }

  @Test
  void anIdleSessionEndsAndOneInUseStaysAwake() {
    SignOnClient idle = browserless();
    idle.signIn("oidc", "vera", PASSWORD);
    SignOnClient busy = browserless();
    busy.signIn("oidc", "vera", PASSWORD);
    try (MongoClient mongo = MongoClients.create(stack.infrastructure().mongoUri())) {
      MongoCollection<Document> sessions =
          mongo.getDatabase("trainyard").getCollection("ui_sessions");
      Instant idleUntil = idleUntil(sessions, busy.session());
      assertThat(idleUntil)
          .isBetween(Instant.now().plus(IDLE).minusSeconds(60), Instant.now().plus(IDLE));

      // as the store holds them after half an hour without a request; and with a second left
      setIdleUntil(sessions, idle.session(), Instant.now().minusSeconds(1));
      setIdleUntil(sessions, busy.session(), Instant.now().plusSeconds(5));
      HttpResponse<String> ended = idle.get("/ui/");
      assertThat(ended.statusCode()).isEqualTo(303);
      assertThat(location(ended)).contains("/ui/sign-in");
      // an open page reading itself again after a live update is no one at the keyboard
      Instant before = idleUntil(sessions, busy.session());
      assertThat(busy.refresh("/ui/").statusCode()).isEqualTo(200);
      assertThat(idleUntil(sessions, busy.session())).isEqualTo(before);
      assertThat(busy.get("/ui/").statusCode()).isEqualTo(200);
      assertThat(idleUntil(sessions, busy.session()))
          .isAfter(Instant.now().plus(IDLE).minusSeconds(60));
    }
  }

  private static Instant idleUntil(MongoCollection<Document> sessions, String cookie) {
    Document doc = sessions.find(Filters.eq("_id", TokenHash.sha256(cookie))).first();
    assertThat(doc).isNotNull();
    assertThat(doc.get("person", Document.class).getString("id")).isEqualTo("oidc:vera");
    assertThat(doc.getString("tokenHash")).isNull();
    return doc.getDate("idleUntil").toInstant();
  }

  private static void setIdleUntil(MongoCollection<Document> sessions, String cookie, Instant at) {
    sessions.updateOne(
        Filters.eq("_id", TokenHash.sha256(cookie)), Updates.set("idleUntil", Date.from(at)));
  }

  @Test
  void gitHubTeamsMapToRolesAndARefusalOrAStrangerSignsNoOneIn() throws IOException {
    pullRequestUnderTest(1);
    github.atTheKeyboard("octocat", false);
    SignOnClient octocat = browserless();
    HttpResponse<String> signedIn = octocat.signIn("github", "octocat", "");
    assertThat(signedIn.statusCode()).as(signedIn.body()).isEqualTo(303);
    assertThat(octocat.get("/ui/").body()).contains("octocat · " + ORG);
    // release-team (any letter case) makes them an operator, above octo-org's viewer: they pause
    HttpResponse<String> paused = octocat.post(queueAction("pause"), form(octocat, "/ui/"));
    assertThat(paused.statusCode()).as(paused.body()).isEqualTo(303);
    assertThat(queueState()).isEqualTo("paused");
    JsonNode events = auditEvents("updateQueue");
    // named by GitHub's numeric id, which a rename keeps
    assertThat(events.get(0).get("actor").get("id").asString()).isEqualTo("person:github:583231");
    assertThat(events.get(0).get("actor").get("name").asString()).isEqualTo("octocat");
    assertThat(events.get(0).get("actor").get("role").asString()).isEqualTo("operator");

    github.atTheKeyboard("hubot", false);
    SignOnClient hubot = browserless();
    assertThat(hubot.signIn("github", "hubot", "").statusCode()).isEqualTo(403);
    assertThat(hubot.session()).isNull();

    github.atTheKeyboard("octocat", true);
    SignOnClient cancelled = browserless();
    HttpResponse<String> refused = cancelled.signIn("github", "octocat", "");
    assertThat(refused.statusCode()).isEqualTo(401);
    assertThat(refused.body()).contains("denied your application access");
    assertThat(cancelled.session()).isNull();
  }

  private String queueAction(String action) {
    return "/ui/actions/queues/github.com/acme/" + name + "/main/" + action;
  }

  /** The hidden fields of the queue page's forms (CSRF token, form key) and {@code back}. */
  private String form(SignOnClient client, String back) {
    String page = client.get("/ui/queues/github.com/acme/" + name + "/main").body();
    return "_csrf=" + hidden(page, "_csrf") + "&_key=" + hidden(page, "_key") + "&back=" + back;
  }

  private String queueState() {
    return api.post("/v1/getQueue", Api.body(name, "")).json().get("state").asString();
  }

  private JsonNode auditEvents(String action) {
    Api.Response listed =
        api.post("/v1/listAuditEvents", "{\"action\":\"" + action + "\",\"take\":10}");
    assertThat(listed.status()).as(listed.body()).isEqualTo(200);
    return listed.json().get("auditEvents");
  }

  @Test
  void aViewerSeesButCannotActAnOperatorCancelsAndAnAdminChangesSettings() throws IOException {
    Browser.required();
    pullRequestUnderTest(1);
    String pull = "/ui/queues/github.com/acme/" + name + "/main/pulls/1";
    try (Browser vera = new Browser(api.base())) {
      signInThroughTheProvider(vera, pull, "vera");
      assertThat(vera.text("header .who")).isEqualTo("vera@example.test · " + ORG);
      vera.click("form[action$='/cancel'] button");
      vera.await()
          .until(
              d -> vera.text("main h1").contains("403") || vera.text("main").contains("may not"));
      assertThat(vera.text("main")).contains("viewer role may not");
      assertThat(awaitState(api, name, 1, "testing")).isNotNull();
    }
    try (Browser otto = new Browser(api.base())) {
      signInThroughTheProvider(otto, pull, "otto");
      otto.click("form[action$='/cancel'] button");
      awaitState(api, name, 1, "cancelled");
      otto.open(pull);
      assertThat(otto.text("#pr-acts")).contains("cancelPullRequest").contains("otto@example.test");
      JsonNode cancel = auditEvents("cancelPullRequest").get(0);
      assertThat(cancel.get("actor").get("id").asString()).isEqualTo("person:oidc:otto");
      assertThat(cancel.get("actor").get("name").asString()).isEqualTo("otto@example.test");
      assertThat(otto.all("a[href='/ui/audit']")).as("the audit log is an admin's page").isEmpty();
    }
    try (Browser ada = new Browser(api.base())) {
      String queue = "/ui/queues/github.com/acme/" + name + "/main";
      signInThroughTheProvider(ada, queue, "ada");
      ada.find("#s-concurrency").clear();
      ada.find("#s-concurrency").sendKeys("3");
      ada.click("form[action$='/settings'] button");
      ada.await()
          .until(
              d ->
                  api.post("/v1/getQueue", Api.body(name, "")).json().get("concurrency").asInt()
                      == 3);
      ada.open("/ui/audit");
      assertThat(ada.text("main")).contains("updateQueue").contains("ada@example.test");
      assertThat(ada.seriousViolations()).as("axe-core on the audit log").isEmpty();
    }
  }

  /**
   * Opens {@code path}, is sent to the sign-in page, picks the provider, signs in on its login form
   * as {@code user}, and comes back to {@code path}.
   */
  private static void signInThroughTheProvider(Browser browser, String path, String user) {
    browser.open(path);
    assertThat(browser.path()).startsWith("/ui/sign-in?next=");
    assertThat(browser.seriousViolations()).as("axe-core on the sign-in page").isEmpty();
    browser.click("#sign-in-oidc");
    browser.await().until(d -> browser.driver().getCurrentUrl().contains("/login"));
    browser.find("#username").sendKeys(user);
    browser.find("#password").sendKeys(PASSWORD);
    browser.find("button[type='submit']").click();
    browser.await().until(d -> browser.driver().getCurrentUrl().endsWith(path));
  }
}

package dev.trainyard.standalone.dashboard;

import static dev.trainyard.standalone.support.DashboardClient.get;
import static dev.trainyard.standalone.support.DashboardClient.signIn;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.QueueSteps;
import dev.trainyard.standalone.support.Stack;
import dev.trainyard.standalone.support.TestStack;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.bson.Document;
import org.junit.jupiter.api.Test;
import org.springframework.data.mongodb.core.ReactiveMongoTemplate;

/**
 * Forms that behave (issue 50 item 6), over real sockets: an action sent twice from one page (a
 * double click) is applied once; a settings form that someone else's change made stale is refused
 * with that change shown instead of reverting it; concurrent secret rotations each keep the secret
 * they answered.
 */
class DashboardFormsIT {
  private static final Pattern HIDDEN =
      Pattern.compile("<input type=\"hidden\" name=\"([_a-zA-Z]+)\" value=\"([^\"]*)\">");
  private final TestStack stack = TestStack.shared();

  /** The hidden fields of the form whose action ends with {@code action} on {@code page}. */
  private static Map<String, String> hidden(String page, String action) {
    int form = page.indexOf(action + "\"");
    assertThat(form).as("a form for %s", action).isPositive();
    String rest = page.substring(form, page.indexOf("</form>", form));
    Map<String, String> fields = new LinkedHashMap<>();
    Matcher m = HIDDEN.matcher(rest);
    while (m.find()) {
      fields.put(m.group(1), m.group(2).replace("&amp;", "&"));
    }
    return fields;
  }

  private static Api.Response post(Api api, String path, String cookie, Map<String, String> form) {
    return api.send(request(api, path, cookie, form));
  }

  private static HttpRequest.Builder request(
      Api api, String path, String cookie, Map<String, String> form) {
    String body =
        form.entrySet().stream()
            .map(
                e ->
                    URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8)
                        + "="
                        + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
            .collect(Collectors.joining("&"));
    return api.request(path)
        .setHeader("cookie", cookie)
        .setHeader("content-type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(body));
  }

  @Test
  void anActionSentTwiceFromOnePageIsAppliedOnceAndAnotherActionIsNot() throws Exception {
    Stack.Organization org = stack.otherOrganization();
    Api api = org.api();
    String repo = Api.uniqueRepo();
    QueueSteps.create(api, repo, 1);
    QueueSteps.submit(api, repo, 1);
    QueueSteps.submit(api, repo, 2);
    String cookie = signIn(api, api.token());
    String queuePage = "/ui/queues/github.com/acme/" + repo + "/main";
    String page = get(api, queuePage, cookie).body();
    String cancel = "/ui/actions/queues/github.com/acme/" + repo + "/main/cancel";
    Map<String, String> first = new LinkedHashMap<>(hidden(page, "/cancel"));
    first.put("pr", "1");

    // a double click: both sent at once
    CompletableFuture<java.net.http.HttpResponse<String>> a =
        java.net.http.HttpClient.newHttpClient()
            .sendAsync(
                request(api, cancel, cookie, first).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
    CompletableFuture<java.net.http.HttpResponse<String>> b =
        java.net.http.HttpClient.newHttpClient()
            .sendAsync(
                request(api, cancel, cookie, first).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
    List<java.net.http.HttpResponse<String>> both =
        List.of(a.get(30, TimeUnit.SECONDS), b.get(30, TimeUnit.SECONDS));
    // without the page's key the second cancel would meet a PR no longer in the queue (404)
    assertThat(both).allSatisfy(r -> assertThat(r.statusCode()).as(r.body()).isEqualTo(303));
    assertThat(
            api.post("/v1/getSubmittedPullRequest", Api.prBody(repo, 1))
                .json()
                .get("state")
                .asString())
        .isEqualTo("cancelled");

    Map<String, String> other = new LinkedHashMap<>(first);
    other.put("pr", "2");
    assertThat(post(api, cancel, cookie, other).status())
        .as("the same page's form for another PR is an action of its own")
        .isEqualTo(303);
    assertThat(
            api.post("/v1/getSubmittedPullRequest", Api.prBody(repo, 2))
                .json()
                .get("state")
                .asString())
        .isEqualTo("cancelled");
    Map<String, String> anotherPage = new LinkedHashMap<>(first);
    anotherPage.put("_key", java.util.UUID.randomUUID().toString());
    assertThat(post(api, cancel, cookie, anotherPage).status())
        .as("the same cancel from another page: the PR is no longer in the queue")
        .isEqualTo(404);
  }

  @Test
  void aStaleSettingsFormIsRefusedWithTheOtherChangeShownAndRevertsNothing() {
    Stack.Organization org = stack.otherOrganization();
    Api api = org.api();
    String repo = Api.uniqueRepo();
    QueueSteps.create(api, repo, 1);
    String cookie = signIn(api, api.token());
    String queuePage = "/ui/queues/github.com/acme/" + repo + "/main";
    String settings = "/ui/actions/queues/github.com/acme/" + repo + "/main/settings";
    Map<String, String> form =
        new LinkedHashMap<>(hidden(get(api, queuePage, cookie).body(), "/settings"));
    assertThat(form).containsKeys("_settingsVersion", "_shown", "_csrf", "_key");

    // someone else raises the concurrency meanwhile
    Api.Response theirs = api.post("/v1/updateQueue", Api.body(repo, "\"concurrency\":5"));
    assertThat(theirs.status()).as(theirs.body()).isEqualTo(200);
    // this person's stale form: the concurrency it showed, another notReadyTimeoutHours
    form.put("mode", "single");
    form.put("concurrency", "1");
    form.put("notReadyTimeoutHours", "7");

    Api.Response refused = post(api, settings, cookie, form);

    assertThat(refused.status()).as(refused.body()).isEqualTo(409);
    assertThat(refused.body())
        .contains("Someone changed this queue")
        .contains("Test runs at once: 1 → 5");
    Api.Response now = api.post("/v1/getQueue", Api.body(repo, ""));
    assertThat(now.json().get("concurrency").asLong()).as("their change stands").isEqualTo(5);
    assertThat(now.json().get("notReadyTimeoutHours").asLong()).as("nothing saved").isEqualTo(24);

    Map<String, String> fresh =
        new LinkedHashMap<>(hidden(get(api, queuePage, cookie).body(), "/settings"));
    fresh.put("mode", "single");
    fresh.put("concurrency", "5");
    fresh.put("notReadyTimeoutHours", "7");
    assertThat(post(api, settings, cookie, fresh).status()).isEqualTo(303);
    // the same rendered form sent again with another value is not taken for a repeat of the first
    // (which would answer 303 and drop the 9): it is a change of settings it no longer shows
    fresh.put("notReadyTimeoutHours", "9");
    assertThat(post(api, settings, cookie, fresh).status()).isEqualTo(409);
    assertThat(
            api.post("/v1/getQueue", Api.body(repo, ""))
                .json()
                .get("notReadyTimeoutHours")
                .asLong())
        .isEqualTo(7);
  }

  @Test
  void updateQueueWithASettingsVersionAppliesOnlyToTheSettingsItRead() {
    Api api = stack.otherOrganization().api();
    String repo = Api.uniqueRepo();
    QueueSteps.create(api, repo, 1);
    String read =
        api.post("/v1/getQueue", Api.body(repo, "")).json().get("settingsVersion").asString();
    assertThat(read).matches("[0-9a-f]{16}");

    Api.Response applied =
        api.post(
            "/v1/updateQueue",
            Api.body(repo, "\"concurrency\":3,\"ifSettingsVersion\":\"" + read + "\""));
    Api.Response stale =
        api.post(
            "/v1/updateQueue",
            Api.body(repo, "\"concurrency\":9,\"ifSettingsVersion\":\"" + read + "\""));
    Api.Response malformed =
        api.post("/v1/updateQueue", Api.body(repo, "\"ifSettingsVersion\":\"latest\""));

    assertThat(applied.status()).as(applied.body()).isEqualTo(200);
    assertThat(applied.json().get("settingsVersion").asString()).isNotEqualTo(read);
    assertThat(stale.status()).as(stale.body()).isEqualTo(409);
    assertThat(stale.body()).startsWith("the queue's settings changed since they were read");
    assertThat(malformed.status()).isEqualTo(400);
    assertThat(malformed.body()).startsWith("ifSettingsVersion must be");
    assertThat(api.post("/v1/getQueue", Api.body(repo, "")).json().get("concurrency").asLong())
        .isEqualTo(3);
  }

  @Test
  void rotationsAtOnceEachKeepTheSecretTheyAnswered() throws Exception {
    Api api = stack.otherOrganization().api();
    Api.Response created =
        api.post(
            "/v1/webhooks/createEndpoint",
            "{\"url\":\"http://127.0.0.1:9/hook\",\"description\":\"rotations\"}");
    assertThat(created.status()).as(created.body()).isEqualTo(200);
    String id = created.json().get("id").asString();
    int rotations = 6;

    List<CompletableFuture<Api.Response>> answers = new ArrayList<>();
    for (int i = 0; i < rotations; i++) {
      answers.add(
          CompletableFuture.supplyAsync(
              () -> api.post("/v1/webhooks/rotateSecret", "{\"id\":\"" + id + "\"}")));
    }
    Set<String> secrets = new HashSet<>();
    for (CompletableFuture<Api.Response> answer : answers) {
      Api.Response r = answer.get(30, TimeUnit.SECONDS);
      assertThat(r.status()).as(r.body()).isEqualTo(200);
      secrets.add(r.json().get("secret").asString());
    }

    ReactiveMongoTemplate mongo =
        stack.services().gatewayContext().getBean(ReactiveMongoTemplate.class);
    Document endpoint = mongo.findById(id, Document.class, "webhook_endpoints").block();
    assertThat(secrets).hasSize(rotations);
    assertThat(endpoint.getList("secrets", Document.class))
        .as("the first secret and every rotation's, none overwritten by another rotation")
        .hasSize(rotations + 1);
  }

  @Test
  void aPageFromAnotherOrganizationsLinkStaysA404ForThisSession() {
    Api api = stack.otherOrganization().api();
    String cookie = signIn(api, api.token());
    Api.Response page = get(api, "/ui/?org=" + TestStack.ORG, cookie);
    assertThat(page.status()).isEqualTo(404);
  }
}

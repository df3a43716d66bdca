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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The dashboard tells people what they ask (issue 50 item 7), over real sockets: where a PR stands
 * and when it should land, what a passed PR waits for when a freeze or a closed merge window holds
 * it, a link to the PR on GitHub, and an admin moving between organizations without signing out.
 */
class DashboardAnswersIT {
  private static final Pattern CSRF = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");
  private final TestStack stack = TestStack.shared();

  @Test
  void aFrozenQueueSaysSoAndItsPrsSayWhereTheyStandAndLinkToGithub() {
    Stack.Organization org = stack.otherOrganization();
    Api api = org.api();
    String repo = Api.uniqueRepo();
    QueueSteps.create(api, repo, 1);
    QueueSteps.submit(api, repo, 4);
    Api.Response frozen =
        api.post("/v1/freezeQueue", Api.body(repo, "\"reason\":\"release 4.2 goes out\""));
    assertThat(frozen.status()).as(frozen.body()).isEqualTo(200);
    String cookie = signIn(api, api.token());

    String queuePage = get(api, "/ui/queues/github.com/acme/" + repo + "/main", cookie).body();
    String pullPage =
        get(api, "/ui/queues/github.com/acme/" + repo + "/main/pulls/4", cookie).body();

    assertThat(queuePage)
        .contains("id=\"landing-gate\"")
        .contains(
            "Nothing lands now: it waits for the freeze to end (release 4.2 goes out, until unfrozen).")
        .contains("<th scope=\"col\">Estimated merge</th>")
        .contains("href=\"https://github.com/acme/" + repo + "/pull/4\"");
    assertThat(pullPage)
        .contains("id=\"pr-position\">#1<")
        .contains("href=\"https://github.com/acme/" + repo + "/pull/4\"");
  }

  @Test
  void aPlainGitHostGetsNoLinkToAPageItDoesNotHave() {
    Stack.Organization org = stack.otherOrganization();
    Api api = org.api();
    String repo = Api.uniqueRepo();
    Api.Response created =
        api.post(
            "/v1/createQueue",
            "{\"repo\":{\"host\":\"git.example.com\",\"owner\":\"acme\",\"name\":\""
                + repo
                + "\"},\"targetBranch\":\"main\"}");
    assertThat(created.status()).as(created.body()).isEqualTo(200);
    String cookie = signIn(api, api.token());

    String page = get(api, "/ui/queues/git.example.com/acme/" + repo + "/main", cookie).body();

    assertThat(page).doesNotContain("on GitHub").doesNotContain("id=\"landing-gate\"");
  }

  @Test
  void anAdminSwitchesOrganizationUnderANewSessionAndOthersCannot() {
    Stack.Organization first = stack.otherOrganization();
    Stack.Organization second = stack.otherOrganization();
    Api admin = stack.admin();
    String cookie = signIn(admin, admin.token());

    String atFirst = lookAt(admin, cookie, first.slug());
    Api.Response switchPage = get(admin, "/ui/organizations", atFirst);
    assertThat(switchPage.status()).isEqualTo(200);
    assertThat(switchPage.body()).contains("Look at " + second.slug());
    String atSecond = lookAt(admin, atFirst, second.slug());

    assertThat(atSecond).isNotEqualTo(atFirst).isNotEqualTo(cookie);
    assertThat(get(admin, "/ui/", atSecond).body()).contains(second.slug());
    assertThat(get(admin, "/ui/", atFirst).status())
        .as("the session before the switch ended with it")
        .isEqualTo(303);

    Api api = first.api();
    assertThat(get(api, "/ui/organizations", signIn(api, api.token())).status()).isEqualTo(404);
  }

  /** Looks at {@code org} from the session of {@code cookie}: the new session's cookie. */
  private static String lookAt(Api admin, String cookie, String org) {
    Matcher csrf = CSRF.matcher(get(admin, "/ui/organizations", cookie).body());
    if (!csrf.find()) {
      csrf = CSRF.matcher(get(admin, "/ui/", cookie).body());
      assertThat(csrf.find()).isTrue();
    }
    Api.Response switched =
        admin.send(
            admin
                .request("/ui/actions/look-at")
                .setHeader("cookie", cookie)
                .setHeader("content-type", "application/x-www-form-urlencoded")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "_csrf="
                            + csrf.group(1)
                            + "&org="
                            + URLEncoder.encode(org, StandardCharsets.UTF_8))));
    assertThat(switched.status()).as(switched.body()).isEqualTo(303);
    String set = switched.headers().firstValue("set-cookie").orElseThrow();
    return set.substring(0, set.indexOf(';'));
  }

  @Test
  void findMyPrSearchesEveryQueueOfTheOrganizationAndNoOtherOne() {
    Stack.Organization org = stack.otherOrganization();
    Api api = org.api();
    String first = Api.uniqueRepo();
    String second = Api.uniqueRepo();
    QueueSteps.create(api, first, 1);
    QueueSteps.create(api, second, 1);
    QueueSteps.submit(api, first, 42);
    QueueSteps.submit(api, second, 42);
    QueueSteps.submit(api, first, 43);
    Stack.Organization other = stack.otherOrganization();
    String theirs = Api.uniqueRepo();
    QueueSteps.create(other.api(), theirs, 1);
    QueueSteps.submit(other.api(), theirs, 42);
    String cookie = signIn(api, api.token());

    assertThat(get(api, "/ui/", cookie).body()).contains("action=\"/ui/find\"");
    String found =
        Awaitility.await()
            .atMost(QueueSteps.PATIENCE)
            .until(
                () -> get(api, "/ui/find?q=%2342", cookie).body(),
                page -> page.contains(first + "/main/pulls/42") && page.contains(second));
    assertThat(found)
        .contains("href=\"/ui/queues/github.com/acme/" + second + "/main/pulls/42\"")
        .doesNotContain("pulls/43")
        .as("another organization's #42")
        .doesNotContain(theirs);
    assertThat(get(api, "/ui/find?q=43", cookie).body()).contains(first + "/main/pulls/43");
    assertThat(get(api, "/ui/find?q=9999", cookie).body()).contains("Nothing found for 9999");
    String odd = get(api, "/ui/find?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E", cookie).body();
    assertThat(odd).contains("Nothing found for &lt;script&gt;").doesNotContain("<script>alert");
    assertThat(get(api, "/ui/find?q=" + "b".repeat(300), cookie).status()).isEqualTo(400);
  }
}

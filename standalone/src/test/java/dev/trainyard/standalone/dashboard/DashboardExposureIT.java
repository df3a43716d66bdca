package dev.trainyard.standalone.dashboard;

import static dev.trainyard.standalone.support.DashboardClient.get;
import static dev.trainyard.standalone.support.DashboardClient.signInRequest;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.OwnStack;
import dev.trainyard.standalone.support.QueueSteps;
import dev.trainyard.standalone.support.RawRequest;
import dev.trainyard.standalone.support.Stack;
import dev.trainyard.standalone.support.TestStack;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The dashboard exposed to anyone who can reach it (issue 50 item 4, API.md §8), from outside over
 * real sockets: sign-in bodies bounded while they stream, sign-in attempts throttled per address
 * and per token prefix, live streams capped, the security headers on every answer under {@code
 * /ui/} (errors too) and HSTS over TLS, the session cookie a {@code __Host-} one over TLS and
 * {@code SameSite=Lax}, links that keep their organization and their names' odd characters, and
 * pages that do not spend the API's budget.
 */
class DashboardExposureIT extends OwnStack {
  private static final int SIGN_INS_PER_MINUTE = 3;
  private static final int RATE = 20;
  private static final AtomicInteger ADDRESSES = new AtomicInteger();

  @Override
  protected Map<String, Object> properties() {
    return Map.of(
        "trainyard.dashboard.sign-in-per-minute",
        SIGN_INS_PER_MINUTE,
        "trainyard.dashboard.client-address-from-forwarded",
        true,
        "trainyard.dashboard.streams-per-session",
        2,
        "trainyard.dashboard.streams-per-org",
        3,
        "trainyard.rate-limit-per-org",
        RATE);
  }

  /** An address no other sign-in of this class came from (behind the proxy the stack trusts). */
  private static String freshAddress() {
    int n = ADDRESSES.incrementAndGet();
    return "198.51.100." + n;
  }

  /** Signs in as a browser behind the proxy would, from an address of its own. */
  private static String signIn(Api gateway, String token) {
    Api.Response answer = signIn(gateway, token, freshAddress(), false);
    assertThat(answer.status()).as(answer.body()).isEqualTo(303);
    String cookie = answer.headers().firstValue("set-cookie").orElseThrow();
    return cookie.substring(0, cookie.indexOf(';'));
  }

  private static Api.Response signIn(Api gateway, String token, String address, boolean tls) {
    var request =
        signInRequest(gateway, token).setHeader("X-Forwarded-For", "10.9.9.9, " + address);
    if (tls) {
      request.setHeader("X-Forwarded-Proto", "https");
    }
    return gateway.send(request);
  }

  private int port() {
    String base = stack.api().base();
    return Integer.parseInt(base.substring(base.lastIndexOf(':') + 1));
  }

  @Test
  void fourMaximalSignInBodiesAreRefusedAtTheLimitWhileHealthAnswers() throws Exception {
    long nineteenMiB = 19L * 1024 * 1024;
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<RawRequest.Answer>> bodies = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        boolean chunked = i % 2 == 0;
        Map<String, String> headers =
            Map.of(
                "Content-Type",
                "application/x-www-form-urlencoded",
                "X-Forwarded-For",
                freshAddress());
        bodies.add(
            pool.submit(
                () ->
                    RawRequest.post(
                        port(),
                        "/ui/sign-in",
                        headers,
                        "token=".getBytes(StandardCharsets.UTF_8),
                        "&".getBytes(StandardCharsets.UTF_8),
                        nineteenMiB,
                        chunked)));
      }
      assertThat(stack.api().send(stack.api().request("/actuator/health").GET()).status())
          .isEqualTo(200);
      for (Future<RawRequest.Answer> f : bodies) {
        RawRequest.Answer answer = f.get(60, TimeUnit.SECONDS);
        assertThat(answer.status()).as(answer.body()).isEqualTo(413);
        assertThat(answer.body()).contains("larger than the limit of 16 KiB");
        assertThat(answer.headers()).containsEntry("x-content-type-options", "nosniff");
        assertThat(answer.bytesSent())
            .as("answered long before the body was sent")
            .isLessThan(nineteenMiB / 2);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aSignInBodyOfManyEmptyFieldsWithinTheByteLimitIsA400() throws Exception {
    RawRequest.Answer answer =
        RawRequest.post(
            port(),
            "/ui/sign-in",
            Map.of(
                "Content-Type",
                "application/x-www-form-urlencoded",
                "X-Forwarded-For",
                freshAddress()),
            "token=x".getBytes(StandardCharsets.UTF_8),
            "&a=".getBytes(StandardCharsets.UTF_8),
            8 * 1024,
            false);

    assertThat(answer.status()).as(answer.body()).isEqualTo(400);
    assertThat(answer.body()).contains("a form may have at most 16 fields");
  }

  @Test
  void aFormOfAnotherTypeIsA415() {
    Api api = stack.api();
    Api.Response answer =
        api.send(
            api.request("/ui/sign-in")
                .setHeader("content-type", "multipart/form-data; boundary=x")
                .setHeader("X-Forwarded-For", freshAddress())
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("--x--")));

    assertThat(answer.status()).as(answer.body()).isEqualTo(415);
  }

  @Test
  void signInsFromOneAddressAreThrottledAndAnotherAddressIsNot() {
    Api api = stack.api();
    String address = freshAddress();
    Stack.Organization other = stack.otherOrganization();
    int burst = 2 * SIGN_INS_PER_MINUTE;
    for (int i = 0; i < burst; i++) {
      // wrong tokens, each with another prefix: only the address is counted against them all
      assertThat(signIn(api, i + "-ty_wrong", address, false).status()).isEqualTo(401);
    }

    Api.Response refused = signIn(api, other.api().token(), address, false);
    Api.Response elsewhere = signIn(api, other.api().token(), freshAddress(), false);

    assertThat(refused.status()).as(refused.body()).isEqualTo(429);
    assertThat(Integer.parseInt(refused.headers().firstValue("retry-after").orElseThrow()))
        .isBetween(1, 60);
    assertThat(refused.body()).contains("too many sign-in attempts");
    assertThat(refused.headers().firstValue("set-cookie")).as("no session").isEmpty();
    assertThat(elsewhere.status()).as("the right token from another address").isEqualTo(303);
  }

  @Test
  void guessesAtOneTokenPrefixFromManyAddressesAreThrottled() {
    Api api = stack.api();
    int burst = 2 * SIGN_INS_PER_MINUTE;
    for (int i = 0; i < burst; i++) {
      assertThat(signIn(api, "ty_guess-" + i, freshAddress(), false).status()).isEqualTo(401);
    }

    Api.Response refused = signIn(api, "ty_guess-again", freshAddress(), false);

    assertThat(refused.status()).as(refused.body()).isEqualTo(429);
    assertThat(refused.headers().firstValue("retry-after")).isPresent();
  }

  @Test
  void theSessionCookieIsLaxAndOverTlsAHostCookieWithHsts() {
    Api api = stack.api();
    Stack.Organization org = stack.otherOrganization();

    Api.Response plain = signIn(api, org.api().token(), freshAddress(), false);
    Api.Response tls = signIn(api, org.api().token(), freshAddress(), true);

    String plainCookie = plain.headers().firstValue("set-cookie").orElseThrow();
    assertThat(plainCookie).startsWith("trainyard_session=");
    assertThat(plainCookie.toLowerCase(java.util.Locale.ROOT))
        .contains("httponly", "samesite=lax", "path=/")
        .doesNotContain("secure");
    assertThat(plain.headers().firstValue("strict-transport-security")).isEmpty();
    String tlsCookie = tls.headers().firstValue("set-cookie").orElseThrow();
    assertThat(tlsCookie).startsWith("__Host-trainyard_session=");
    assertThat(tlsCookie.toLowerCase(java.util.Locale.ROOT))
        .contains("httponly", "samesite=lax", "secure", "path=/")
        .doesNotContain("domain");
    assertThat(tls.headers().firstValue("strict-transport-security")).hasValue("max-age=31536000");

    String hostCookie = tlsCookie.substring(0, tlsCookie.indexOf(';'));
    Api.Response page =
        api.send(
            api.request("/ui/")
                .setHeader("cookie", hostCookie)
                .setHeader("X-Forwarded-Proto", "https")
                .GET());
    assertThat(page.status()).as("the __Host- cookie names the session").isEqualTo(200);
    assertThat(page.headers().firstValue("strict-transport-security")).isPresent();
    Api.Response apiOverTls =
        api.send(api.request("/actuator/health").setHeader("X-Forwarded-Proto", "https").GET());
    assertThat(apiOverTls.headers().firstValue("strict-transport-security")).isPresent();
  }

  @Test
  void theSignInPageLetsASignedInBrowserGoOn() {
    Api api = stack.api();
    String cookie = signIn(api, stack.otherOrganization().api().token());

    Api.Response again = get(api, "/ui/sign-in?next=%2Fui%2Fwebhooks", cookie);
    Api.Response anonymous = api.send(api.request("/ui/sign-in").GET());

    assertThat(again.status()).isEqualTo(303);
    assertThat(again.headers().firstValue("location")).hasValue("/ui/webhooks");
    assertThat(anonymous.status()).isEqualTo(200);
  }

  @Test
  void errorAnswersUnderUiCarryThePagesSecurityHeaders() {
    Api api = stack.api();
    List<Api.Response> errors =
        List.of(
            api.send(api.request("/ui/no-such-page").GET()),
            api.send(api.request("/ui/queues/github.com/acme/app/m%61in").GET()),
            api.send(api.request("/ui/static/..%2Fx").GET()),
            api.send(
                api.request("/ui/sign-in")
                    .setHeader("content-type", "application/x-www-form-urlencoded")
                    .setHeader("X-Forwarded-For", freshAddress())
                    .POST(java.net.http.HttpRequest.BodyPublishers.ofString("token=%zz"))));
    for (Api.Response error : errors) {
      assertThat(error.status()).isBetween(400, 499);
      assertThat(error.headers().firstValue("content-security-policy"))
          .as("status %d", error.status())
          .hasValueSatisfying(csp -> assertThat(csp).contains("frame-ancestors 'none'"));
      assertThat(error.headers().firstValue("x-content-type-options")).hasValue("nosniff");
      assertThat(error.headers().firstValue("x-frame-options")).hasValue("DENY");
      assertThat(error.headers().firstValue("referrer-policy")).hasValue("same-origin");
    }
  }

  /** An event stream held open on a socket of its own: its status, and closing it. */
  private java.net.Socket stream(String cookie, int[] status) throws Exception {
    java.net.Socket socket = new java.net.Socket("127.0.0.1", port());
    socket.setSoTimeout(10_000);
    socket
        .getOutputStream()
        .write(
            ("GET /ui/events?scope=org HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
                    + "Cookie: "
                    + cookie
                    + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
    StringBuilder line = new StringBuilder();
    for (int c = socket.getInputStream().read();
        c >= 0 && c != '\n';
        c = socket.getInputStream().read()) {
      line.append((char) c);
    }
    status[0] = Integer.parseInt(line.toString().split(" ")[1]);
    return socket;
  }

  private int streamStatus(String cookie) throws Exception {
    int[] status = {0};
    stream(cookie, status).close();
    return status[0];
  }

  @Test
  void liveStreamsAreCappedPerSessionAndPerOrganizationAndAClosedOneGivesItsPlaceBack()
      throws Exception {
    Stack.Organization org = stack.otherOrganization();
    Api api = stack.api();
    String alice = signIn(api, org.api().token());
    String bob = signIn(api, org.api().token());
    List<java.net.Socket> open = new ArrayList<>();
    try {
      int[] status = {0};
      for (int i = 0; i < 2; i++) {
        open.add(stream(alice, status));
        assertThat(status[0]).isEqualTo(200);
      }
      Api.Response third = get(api, "/ui/events?scope=org", alice);
      assertThat(third.status()).as(third.body()).isEqualTo(429);
      assertThat(third.headers().firstValue("retry-after")).isPresent();
      assertThat(third.body()).contains("this session has 2 live pages open already");

      open.add(stream(bob, status));
      assertThat(status[0]).isEqualTo(200);
      Api.Response fourth = get(api, "/ui/events?scope=org", bob);
      assertThat(fourth.status()).as(fourth.body()).isEqualTo(429);
      assertThat(fourth.body()).contains("has 3 live pages open already");

      String carol = signIn(api, stack.otherOrganization().api().token());
      assertThat(streamStatus(carol)).as("another organization").isEqualTo(200);

      // a page closed: its place comes back (once the server has seen the connection go)
      open.remove(0).close();
      Awaitility.await()
          .atMost(java.time.Duration.ofSeconds(15))
          .until(() -> streamStatus(alice) == 200);
    } finally {
      for (java.net.Socket socket : open) {
        socket.close();
      }
    }
  }

  @Test
  void overTlsOnlyTheHostCookieNamesASessionAndAPlantedPlainOneDoesNot() {
    Api api = stack.api();
    Api.Response plain =
        signIn(api, stack.otherOrganization().api().token(), freshAddress(), false);
    String planted = plain.headers().firstValue("set-cookie").orElseThrow();
    planted = planted.substring(0, planted.indexOf(';'));

    Api.Response overTls =
        api.send(
            api.request("/ui/")
                .setHeader("cookie", planted)
                .setHeader("X-Forwarded-Proto", "https")
                .GET());

    assertThat(overTls.status()).as("a plain-named cookie is no session over TLS").isEqualTo(303);
    assertThat(get(api, "/ui/", planted).status()).as("over plain HTTP it is").isEqualTo(200);
  }

  @Test
  void aClientsOwnForwardedLineDoesNotChooseTheAddressItIsCountedUnder() {
    Api api = stack.api();
    String real = freshAddress();
    int burst = 2 * SIGN_INS_PER_MINUTE;
    for (int i = 0; i < burst + 1; i++) {
      // the client writes a new address each time in its own line; the proxy adds the real one
      api.send(
          signInRequest(api, "ty_spoof-" + i + "x")
              .setHeader("X-Forwarded-For", "203.0.113." + i)
              .header("X-Forwarded-For", real));
    }
    Api.Response next =
        api.send(
            signInRequest(api, "ty_spoofed-again")
                .setHeader("X-Forwarded-For", "203.0.113.99")
                .header("X-Forwarded-For", real));

    assertThat(next.status()).as("counted under the address the proxy wrote").isEqualTo(429);
  }

  @Test
  void queueLinksEscapeOddNamesAndKeepTheirOrganization() {
    Api api = stack.api();
    String repo = Api.uniqueRepo();
    String branch = "release+1";
    Api.Response created =
        api.post(
            "/v1/createQueue",
            "{\"repo\":{\"host\":\"github.com\",\"owner\":\"acme\",\"name\":\""
                + repo
                + "\"},\"targetBranch\":\""
                + branch
                + "\"}");
    assertThat(created.status()).as(created.body()).isEqualTo(200);
    Api.Response submitted =
        api.post(
            "/v1/submitPullRequest",
            "{\"repo\":{\"host\":\"github.com\",\"owner\":\"acme\",\"name\":\""
                + repo
                + "\"},\"targetBranch\":\""
                + branch
                + "\",\"pr\":{\"number\":5}}");
    assertThat(submitted.status()).as(submitted.body()).isEqualTo(200);
    String cookie = signIn(api, api.token());

    String link = "/ui/queues/github.com/acme/" + repo + "/release%2B1";
    assertThat(get(api, "/ui/", cookie).body()).contains("href=\"" + link + "\"");
    Api.Response queuePage = get(api, link, cookie);
    assertThat(queuePage.status()).as(queuePage.body()).isEqualTo(200);
    assertThat(queuePage.body()).contains("release+1");

    String details = "/merge-queue/github.com/acme/" + repo + "/release%2B1/5";
    Api.Response ours = get(api, "/" + TestStack.ORG + details, cookie);
    assertThat(ours.status()).isEqualTo(303);
    String location = ours.headers().firstValue("location").orElseThrow();
    assertThat(location).isEqualTo(link + "/pulls/5?org=" + TestStack.ORG);
    Api.Response pull = get(api, location, cookie);
    assertThat(pull.status()).as(pull.body()).isEqualTo(200);
    assertThat(pull.body()).contains("release+1");

    Api.Response theirs = get(api, "/someone-else" + details, cookie);
    assertThat(theirs.status()).isEqualTo(303);
    Api.Response followed = get(api, theirs.headers().firstValue("location").orElseThrow(), cookie);
    assertThat(followed.status()).as("another organization's link").isEqualTo(404);
    assertThat(followed.body()).contains("organization someone-else");
  }

  @Test
  void anotherOrganizationsFlakyListingIsA404AndOursIsNot() {
    Api api = stack.api();
    String repo = Api.uniqueRepo();
    QueueSteps.create(api, repo, 1);
    Stack.Organization other = stack.otherOrganization();
    String ours = signIn(api, api.token());
    String theirs = signIn(api, other.api().token());

    assertThat(get(api, "/ui/flaky-tests/github.com/acme/" + repo, ours).status()).isEqualTo(200);
    Api.Response refused = get(api, "/ui/flaky-tests/github.com/acme/" + repo, theirs);
    assertThat(refused.status()).as(refused.body()).isEqualTo(404);
  }

  @Test
  void pagesSpendTheirOwnBudgetNotTheApis() {
    Stack.Organization org = stack.otherOrganization();
    String cookie = signIn(stack.api(), org.api().token());
    String body = Api.body(Api.uniqueRepo(), "");

    int limited = 0;
    for (int i = 0; i < 10 * RATE && limited == 0; i++) {
      if (org.api().post("/v1/getQueue", body).status() == 429) {
        limited++;
      }
    }
    assertThat(limited).as("the API's bucket is spent").isPositive();

    Api.Response page = get(stack.api(), "/ui/", cookie);
    assertThat(page.status()).as(page.body()).isEqualTo(200);
  }
}

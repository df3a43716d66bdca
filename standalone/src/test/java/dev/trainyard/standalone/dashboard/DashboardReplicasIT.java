package dev.trainyard.standalone.dashboard;

import static dev.trainyard.standalone.support.DashboardClient.get;
import static dev.trainyard.standalone.support.DashboardClient.signIn;
import static dev.trainyard.standalone.support.DashboardClient.signInAnswer;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.standalone.TrainyardServices;
import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.DashboardClient.Events;
import dev.trainyard.standalone.support.OwnStack;
import dev.trainyard.standalone.support.QueueSteps;
import dev.trainyard.standalone.support.Stack;
import dev.trainyard.standalone.support.TestStack;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The dashboard behind two gateway replicas without sticky sessions (API.md §8): a session made on
 * one works on the other, sign-out and revocation on one end it on both, and a page open on one
 * hears of a change made through the other.
 */
class DashboardReplicasIT extends OwnStack {
  private static final Pattern CSRF = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");
  private ConfigurableApplicationContext gateway2;
  private Api first;
  private Api second;

  @BeforeAll
  void startSecondGateway() {
    gateway2 = TrainyardServices.gateway(stack.properties());
    first = stack.api();
    second =
        new Api(
            "http://127.0.0.1:"
                + gateway2.getEnvironment().getRequiredProperty("local.server.port"),
            first.token());
  }

  @AfterAll
  void stopSecondGateway() {
    gateway2.close();
  }

  @Test
  void aSessionSignedInOnOneReplicaWorksOnTheOtherUntilItSignsOutThere() throws Exception {
    String cookie = signIn(first, first.token());
    Api.Response page = get(second, "/ui/", cookie);
    assertThat(page.status()).isEqualTo(200);
    Events open = Events.open(first, "org", cookie);
    assertThat(open.lines().poll(30, TimeUnit.SECONDS)).isEqualTo("event:open");

    Matcher csrf = CSRF.matcher(page.body());
    assertThat(csrf.find()).isTrue();
    Api.Response out =
        second.send(
            second
                .request("/ui/sign-out")
                .setHeader("cookie", cookie)
                .setHeader("content-type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("_csrf=" + csrf.group(1))));
    assertThat(out.status()).isEqualTo(303);

    Api.Response after = get(first, "/ui/", cookie);
    assertThat(after.status()).isEqualTo(303);
    assertThat(after.headers().firstValue("location").orElse("")).startsWith("/ui/sign-in");
    // the page's stream on the other replica ends at its next heartbeat (every 15 s)
    assertThat(open.ended().get(40, TimeUnit.SECONDS)).isTrue();
    assertThat(get(first, "/ui/events?scope=org", cookie).status())
        .as("the browser's reconnect")
        .isEqualTo(401);
  }

  @Test
  void revokingTheTokenOnOneReplicaEndsItsSessionOnTheOther() {
    Stack.Organization other = stack.otherOrganization();
    String cookie = signIn(second, other.api().token());
    assertThat(get(second, "/ui/", cookie).status()).isEqualTo(200);

    Api.Response revoked =
        stack
            .admin()
            .post("/admin/v1/revokeApiToken", "{\"token\":\"" + other.api().token() + "\"}");
    assertThat(revoked.status()).as(revoked.body()).isEqualTo(200);

    // each replica caches a token's organization for at most 5 s
    Awaitility.await()
        .atMost(Duration.ofSeconds(15))
        .until(() -> get(second, "/ui/", cookie).status() == 303);
    assertThat(signInAnswer(second, other.api().token()).status()).isEqualTo(401);
  }

  @Test
  void aPageOpenOnOneReplicaHearsOfAChangeMadeThroughTheOther() throws Exception {
    String repo = Api.uniqueRepo();
    QueueSteps.create(first, repo, 1);
    String cookie = signIn(second, first.token());
    String scope = "queue:" + TestStack.ORG + "/github.com/acme/" + repo + ":main";
    Events stream = Events.open(second, scope, cookie);
    BlockingQueue<String> lines = stream.lines();
    try {
      assertThat(lines.poll(30, TimeUnit.SECONDS)).isEqualTo("event:open");

      // the replica's reader may still be finding the topic's partitions: submit until it hears
      long pr = 0;
      String heard = null;
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (heard == null && System.nanoTime() < deadline) {
        QueueSteps.submit(first, repo, ++pr);
        heard = changed(lines, Duration.ofSeconds(2));
      }
      assertThat(heard).isEqualTo("data:pull_request.submitted");

      // from then on every change is heard (how soon is bench/'s DashboardBenchmark); the signals
      // of the submits above that were not awaited are let through and dropped first, so the one
      // heard next is this change's
      Thread.sleep(2_000); // the earlier signals' time to arrive, not a wait for a condition
      lines.clear();
      QueueSteps.submit(first, repo, ++pr);
      assertThat(changed(lines, Duration.ofSeconds(10))).isEqualTo("data:pull_request.submitted");
    } finally {
      stream.ended().cancel(true);
    }
  }

  /** The data line of the next "changed" signal, or null when none comes in {@code within}. */
  private static String changed(BlockingQueue<String> lines, Duration within)
      throws InterruptedException {
    long end = System.nanoTime() + within.toNanos();
    boolean signal = false;
    while (System.nanoTime() < end) {
      String line = lines.poll(end - System.nanoTime(), TimeUnit.NANOSECONDS);
      if (line == null) {
        return null;
      }
      if (line.equals("event:changed")) {
        signal = true;
      } else if (signal && line.startsWith("data:")) {
        return line;
      }
    }
    return null;
  }
}

package dev.trainyard.standalone.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.topic.Topics;
import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.ClusterHarness;
import dev.trainyard.standalone.support.QueueSteps;
import dev.trainyard.standalone.support.TcpGate;
import dev.trainyard.standalone.support.WebhookReceiver;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.util.FileSystemUtils;
import tools.jackson.databind.JsonNode;

/**
 * The chaos run of issues 14 and 32: the chart's topology as processes — a 3-node KRaft cluster
 * (each node its own process; RF 3, min ISR 2), the store, two gateways behind a Service, two queue
 * workers, the dispatcher and the flaky-tests service — merging 50 git PRs over 10 queues with CI
 * results and a webhook subscriber, while two clients churn PRs on two more queues (submit, then
 * cancel; one with an {@code Idempotency-Key}, one without), through a seeded schedule: kill -9 a
 * worker; kill -9 the broker leading most command partitions, then the workers' group coordinator;
 * SIGSTOP the store 10 s; SIGSTOP a broker 40 s; kill -9 every broker; roll the brokers one by one,
 * the workers, the gateways; kill -9 a worker. The local cluster starts every exited process again,
 * as Kubernetes would. Clients retry on 503 or a dropped connection.
 *
 * <p>It prints a {@code CHAOS} line with the figures of bench/README.md and a {@code FAULT} line
 * per fault, and asserts: every PR merged exactly once, no command lost, no 200 for a command not
 * applied, no keyed command applied twice or refused on retry, no webhook undelivered or sent twice
 * under different ids, no 5xx but 503.
 */
class ChaosIT {
  private static final long SEED = 20261126L;
  private static final int QUEUES = 10;
  private static final int PRS = 5;
  private static final int CHURN_PRS = 30;
  private static final String WORKER = "trainyard-queue-worker";
  private static final Duration FLOW_LIMIT = Duration.ofMinutes(14);
  private static final Duration BACK = Duration.ofMinutes(3);
  private static final int NO_ANSWER = -1;

  /** Kept after the run (logs of every process, the brokers' and the store's data). */
  private final Path folder = Path.of("target", "chaos").toAbsolutePath();

  private final FaultLedger ledger = new FaultLedger();
  private final AtomicInteger otherServerErrors = new AtomicInteger();
  private final AtomicInteger wrongly200 = new AtomicInteger();
  private final AtomicInteger keyedRetriesRefused = new AtomicInteger();
  private final AtomicInteger unkeyedRetriesRefused = new AtomicInteger();
  private final AtomicInteger keyStillAnswered = new AtomicInteger();
  private final AtomicBoolean faulting = new AtomicBoolean(true);

  /** Open once the faults are over: the submits and the churn no longer pace themselves. */
  private final CountDownLatch faultsOver = new CountDownLatch(1);

  private final List<String> unexpected = new CopyOnWriteArrayList<>();
  private final Map<String, String> submits = new ConcurrentHashMap<>();

  /**
   * Answers without a change of their own (a 404 cancel, a resubmit that changed nothing) and what
   * must hold at the end for each to have stayed true, by "queue#pr": "cancelled" or "not
   * cancelled" (ARCHITECTURE.md: what a client was told stays true).
   */
  private final Map<String, String> answersToHold = new ConcurrentHashMap<>();

  /** The churn's second PR of each round, cancelled before it is submitted and then kept. */
  private static final long KEPT_OFFSET = 100;

  /** A definitive answer, and whether attempts before it went unanswered. */
  private record Answer(int status, boolean retried) {}

  @Test
  void fiftyPullRequestsMergeExactlyOnceThroughBrokerStoreWorkerAndGatewayFaults()
      throws Exception {
    Map<String, String> values =
        Map.of(
            "TRAINYARD_CLUSTER_BROKERS",
            "3",
            "TRAINYARD_CLUSTER_SET",
            "settings.insecureLocalEndpoints=true;topics.replicationFactor=3;gateway.replicas=2;"
                + "settings.webhookRetrySchedule=1s\\,2s\\,5s\\,10s\\,10s\\,20s\\,30s\\,30s");
    Instant started = Instant.now();
    FileSystemUtils.deleteRecursively(folder);
    try (ClusterHarness cluster = ClusterHarness.start(folder, values);
        TcpGate gateways = cluster.service("trainyard-gateway");
        KafkaNodes kafka = new KafkaNodes(cluster);
        WebhookReceiver receiver = new WebhookReceiver()) {
      Api api = cluster.api("http://127.0.0.1:" + gateways.port());
      for (ClusterHarness.Member worker : cluster.members(WORKER)) {
        worker.awaitAssignedPartitions(n -> n > 0);
      }
      subscribeOnce(api, receiver.url());

      ExecutorService pool = Executors.newFixedThreadPool(5);
      AtomicBoolean flowing = new AtomicBoolean(true);
      try (ClusterQueues queues = ClusterQueues.open(cluster, api, QUEUES, PRS);
          ClusterQueues churned = ClusterQueues.open(cluster, api, 2, CHURN_PRS, false)) {
        List<String> names = queues.names;
        Future<?> reads = pool.submit(() -> probeReads(api, names.get(0), flowing));
        Future<?> submits = pool.submit(() -> submitAll(api, names));
        Future<List<Long>> keyed = pool.submit(() -> churn(api, churned.names.get(0), true));
        Future<List<Long>> unkeyed = pool.submit(() -> churn(api, churned.names.get(1), false));
        Future<?> chaos = pool.submit(() -> chaos(cluster, kafka));

        chaos.get(FLOW_LIMIT.toSeconds(), TimeUnit.SECONDS);
        faulting.set(false);
        faultsOver.countDown();
        ledger.begin("after the faults");
        submits.get(FLOW_LIMIT.toSeconds(), TimeUnit.SECONDS);
        Map<String, List<Long>> churnedPrs =
            Map.of(
                churned.names.get(0), keyed.get(2, TimeUnit.MINUTES),
                churned.names.get(1), unkeyed.get(2, TimeUnit.MINUTES));
        Map<String, String> notMerged = awaitMerged(api, names);
        flowing.set(false);
        reads.get(30, TimeUnit.SECONDS);

        int mergedOnce = queues.mergedOnce(PRS);
        int inOrder = queues.landedInOrder(PRS);
        // a cancel answered 200 must have cancelled; a keyed submit replayed must not re-queue
        long notCancelled =
            churnedPrs.entrySet().stream()
                .flatMap(e -> e.getValue().stream().map(pr -> state(api, e.getKey(), pr)))
                .filter(state -> !state.equals("cancelled"))
                .count();
        List<String> overturned =
            answersToHold.entrySet().stream()
                .filter(
                    e -> {
                      String[] at = e.getKey().split("#");
                      boolean cancelled =
                          state(api, at[0], Long.parseLong(at[1])).equals("cancelled");
                      return cancelled != e.getValue().equals("cancelled");
                    })
                .map(Map.Entry::getKey)
                .sorted()
                .toList();
        Set<String> expected = new HashSet<>();
        for (String name : names) {
          for (long pr = 1; pr <= PRS; pr++) {
            expected.add("pull_request.merged " + name + "#" + pr);
          }
        }
        churnedPrs.forEach(
            (name, prs) ->
                prs.forEach(pr -> expected.add("pull_request.canceled " + name + "#" + pr)));
        Instant deadline = Instant.now().plus(Duration.ofMinutes(2));
        while (!delivered(receiver).keySet().containsAll(expected)
            && Instant.now().isBefore(deadline)) {
          sleep(1_000);
        }
        Map<String, Set<String>> delivered = delivered(receiver);
        List<String> undelivered =
            expected.stream().filter(e -> !delivered.containsKey(e)).sorted().toList();
        // one event sent twice would come under two ids: the same body, or a PR merged twice
        Map<String, Set<String>> idsByBody =
            receiver.received().stream()
                .filter(r -> r.answeredWith() / 100 == 2)
                .collect(
                    Collectors.groupingBy(
                        WebhookReceiver.Received::body,
                        Collectors.mapping(r -> r.header("webhook-id"), Collectors.toSet())));
        long underTwoIds =
            idsByBody.values().stream().filter(ids -> ids.size() > 1).count()
                + expected.stream()
                    .map(delivered::get)
                    .filter(ids -> ids != null && ids.size() > 1)
                    .count();
        String report =
            String.format(
                "CHAOS seed=%d brokers=3 gateways=2 workers=2 prs=%d merged-exactly-once=%d queues-landed-in-order=%d"
                    + " commands-lost=%d churned=%d 200-not-applied=%d"
                    + " 4xx-and-no-op-answers-checked=%d answers-overturned=%s"
                    + " churned-not-cancelled=%d keyed-retries-refused=%d"
                    + " unkeyed-retries-refused=%d key-still-being-answered-409s=%d events-undelivered=%s"
                    + " webhook-events-under-two-ids=%d 5xx-other-than-503=%d 503s=%d"
                    + " longest-read-unavailability=%.1fs longest-command-wait=%.1fs run=%ds"
                    + " not-merged=%s unexpected=%s",
                SEED,
                QUEUES * PRS,
                mergedOnce,
                inOrder,
                QUEUES * PRS - mergedOnce,
                churnedPrs.values().stream().mapToInt(List::size).sum(),
                wrongly200.get(),
                answersToHold.size(),
                overturned,
                notCancelled,
                keyedRetriesRefused.get(),
                unkeyedRetriesRefused.get(),
                keyStillAnswered.get(),
                undelivered,
                underTwoIds,
                otherServerErrors.get(),
                ledger.unavailable(),
                ledger.longestReadGapMillis() / 1000.0,
                ledger.longestCommandWaitMillis() / 1000.0,
                Duration.between(started, Instant.now()).toSeconds(),
                notMerged,
                unexpected);
        System.out.println(report);
        ledger.lines().forEach(System.out::println);
        assertThat(notMerged).as(report).isEmpty();
        assertThat(mergedOnce).as(report).isEqualTo(QUEUES * PRS);
        assertThat(inOrder).as(report).isEqualTo(QUEUES);
        assertThat(wrongly200.get()).as(report).isZero();
        assertThat(answersToHold).as(report).isNotEmpty();
        assertThat(overturned).as(report).isEmpty();
        assertThat(notCancelled).as(report).isZero();
        assertThat(keyedRetriesRefused.get()).as(report).isZero();
        assertThat(undelivered).as(report).isEmpty();
        assertThat(underTwoIds).as(report).isZero();
        assertThat(otherServerErrors.get()).as(report).isZero();
        assertThat(unexpected).as(report).isEmpty();
      } finally {
        flowing.set(false);
        faulting.set(false);
        pool.shutdownNow();
      }
    }
  }

  /** The schedule, its start jittered by the seed; each fault waits for the last to heal. */
  private Void chaos(ClusterHarness cluster, KafkaNodes kafka) throws Exception {
    Random random = new Random(SEED);
    long start = System.nanoTime();
    sleepUntil(start, 8 + random.nextInt(4));
    kill(cluster, WORKER + "-" + random.nextInt(2), "");
    sleepUntil(start, 20 + random.nextInt(4));
    kill(cluster, kafka.leaderOfMost(Topics.QUEUE_COMMANDS), " (leads most command partitions)");
    kafka.awaitInSync(BACK);
    kill(cluster, kafka.coordinator(WORKER), " (the workers' group coordinator)");
    kafka.awaitInSync(BACK);

    ProcessHandle store = cluster.member("store").process();
    ledger.begin("SIGSTOP store 10 s");
    signal("STOP", store);
    Thread.sleep(10_000);
    signal("CONT", store);
    Thread.sleep(5_000);

    String paused = kafka.leaderOfMost(Topics.QUEUE_COMMANDS);
    ledger.begin("SIGSTOP " + paused + " 40 s (leads most command partitions)");
    signal("STOP", cluster.member(paused).process());
    Thread.sleep(40_000);
    signal("CONT", cluster.member(paused).process());
    kafka.awaitInSync(BACK);

    ledger.begin("kill -9 every broker");
    List<ClusterHarness.Member> brokers = cluster.members("kafka");
    brokers.forEach(b -> b.process().destroyForcibly());
    for (ClusterHarness.Member broker : brokers) {
      awaitReplaced(cluster, broker);
    }
    kafka.awaitInSync(BACK);

    for (ClusterHarness.Member broker : cluster.members("kafka")) {
      roll(cluster, broker);
      kafka.awaitInSync(BACK);
    }
    for (ClusterHarness.Member worker : cluster.members(WORKER)) {
      roll(cluster, worker).awaitAssignedPartitions(n -> n > 0, BACK);
    }
    for (ClusterHarness.Member gateway : cluster.members("trainyard-gateway")) {
      roll(cluster, gateway).awaitReady(BACK);
    }
    Thread.sleep(5_000);
    ClusterHarness.Member last = kill(cluster, WORKER + "-" + random.nextInt(2), "");
    awaitReplaced(cluster, last).awaitAssignedPartitions(n -> n > 0, BACK);
    return null;
  }

  private ClusterHarness.Member kill(ClusterHarness cluster, String name, String why) {
    // the one killed before may still be starting again: wait for its replacement to be up
    Awaitility.await()
        .atMost(BACK)
        .ignoreExceptions()
        .until(() -> cluster.member(name).process().isAlive());
    ClusterHarness.Member member = cluster.member(name);
    ledger.begin("kill -9 " + name + why + " pid " + member.pid());
    member.process().destroyForcibly();
    return member;
  }

  /** SIGTERM, as a rolling update sends; returns the replacement once it runs. */
  private ClusterHarness.Member roll(ClusterHarness cluster, ClusterHarness.Member member) {
    ledger.begin("roll " + member.name() + " pid " + member.pid());
    member.process().destroy();
    return awaitReplaced(cluster, member);
  }

  private static ClusterHarness.Member awaitReplaced(
      ClusterHarness cluster, ClusterHarness.Member gone) {
    long pid = gone.pid();
    return Awaitility.await()
        .atMost(BACK)
        .ignoreExceptions()
        .until(
            () -> cluster.member(gone.name()),
            m -> m.process().pid() != pid && m.process().isAlive());
  }

  /**
   * Waits up to 3 minutes for every PR to merge.
   *
   * @return each PR that did not ("name#n"): how it was submitted, and what reading it answers
   */
  private Map<String, String> awaitMerged(Api api, List<String> names) {
    Instant deadline = Instant.now().plus(Duration.ofMinutes(3));
    Map<String, String> notMerged = new TreeMap<>();
    for (String name : names) {
      for (long pr = 1; pr <= PRS; pr++) {
        String read = "";
        while (Instant.now().isBefore(deadline)) {
          Api.Response answer = api.post("/v1/getSubmittedPullRequest", Api.prBody(name, pr));
          read = answer.status() + " " + answer.body();
          if (answer.status() == 200 && answer.json().get("state").asString().equals("merged")) {
            break;
          }
          sleep(500);
        }
        if (!read.contains("\"state\":\"merged\"")) {
          notMerged.put(name + "#" + pr, submits.get(name + "#" + pr) + " -> " + read);
        }
      }
    }
    return notMerged;
  }

  /** Submits every PR with a key, the queues' PRs interleaved, one every 5 s; each until 200. */
  private Void submitAll(Api api, List<String> names) throws Exception {
    for (long pr = 1; pr <= PRS; pr++) {
      for (String name : names) {
        Answer answer =
            untilAnswered(
                api, "/v1/submitPullRequest", Api.prBody(name, pr), "chaos-" + name + "-" + pr);
        submits.put(name + "#" + pr, answer + " at " + Instant.now());
        if (answer.status() != 200) {
          unexpected.add("submit " + name + "#" + pr + " answered " + answer.status());
        }
        faultsOver.await(5, TimeUnit.SECONDS); // paced while the faults go on
      }
    }
    return null;
  }

  /**
   * While the faults go on, submits and cancels the queue's PRs one after another (with keys or
   * without), every 8 s; a keyed submit is sent again after its cancel, as a late retry would be.
   *
   * @return the PRs submitted and cancelled
   */
  private List<Long> churn(Api api, String name, boolean keyed) throws Exception {
    List<Long> churned = new ArrayList<>();
    for (long pr = 1; pr <= CHURN_PRS && faulting.get(); pr++) {
      String body = Api.prBody(name, pr);
      String key = keyed ? "churn-" + name + "-" + pr : null;
      // [cancel #n -> 404, submit #n -> 200]: at the end #n must still be in the queue
      long kept = pr + KEPT_OFFSET;
      String keptBody = Api.prBody(name, kept);
      Answer notThere =
          untilAnswered(api, "/v1/cancelPullRequest", keptBody, keyed ? key + "-absent" : null);
      Answer keptSubmit =
          untilAnswered(api, "/v1/submitPullRequest", keptBody, keyed ? key + "-kept" : null);
      if (notThere.status() == 404 && keptSubmit.status() == 200) {
        answersToHold.put(name + "#" + kept, "not cancelled");
      } else {
        unexpected.add(
            "cancel then submit "
                + name
                + "#"
                + kept
                + " answered "
                + notThere.status()
                + ", "
                + keptSubmit.status());
      }
      Answer submitted = untilAnswered(api, "/v1/submitPullRequest", body, keyed ? key : null);
      if (submitted.status() != 200) {
        unexpected.add("submit " + name + "#" + pr + " answered " + submitted.status());
        continue;
      }
      // [resubmit #n -> 200 with no change, cancel #n -> 200]: at the end #n must be cancelled
      Answer again =
          untilAnswered(api, "/v1/submitPullRequest", body, keyed ? key + "-again" : null);
      if (again.status() == 200) {
        answersToHold.put(name + "#" + pr, "cancelled");
      } else {
        unexpected.add("resubmit " + name + "#" + pr + " answered " + again.status());
      }
      Answer cancelled =
          untilAnswered(api, "/v1/cancelPullRequest", body, keyed ? key + "-cancel" : null);
      if (cancelled.status() == 404 && cancelled.retried()) {
        // applied, its answer lost: a keyed retry must be answered as the first was
        (keyed ? keyedRetriesRefused : unkeyedRetriesRefused).incrementAndGet();
      } else if (cancelled.status() == 404) {
        wrongly200.incrementAndGet(); // the submit's 200 was not applied
        unexpected.add("cancel " + name + "#" + pr + " found nothing to cancel");
      } else if (cancelled.status() != 200) {
        unexpected.add("cancel " + name + "#" + pr + " answered " + cancelled.status());
      }
      churned.add(pr);
      if (keyed && cancelled.status() == 200) {
        QueueSteps.awaitState(api, name, pr, "cancelled");
        Answer replayed = untilAnswered(api, "/v1/submitPullRequest", body, key);
        if (replayed.status() != 200) {
          unexpected.add("keyed replay " + name + "#" + pr + " answered " + replayed.status());
        }
      }
      faultsOver.await(8, TimeUnit.SECONDS);
    }
    return churned;
  }

  /**
   * Subscribes {@code url} as a client of a cluster that just started must: a gateway may still be
   * connecting to the brokers (503, API.md: retry later), and an answer that carries a secret is
   * never kept for a retry, so a retried create may have made an endpoint already. Exactly one
   * endpoint for the URL remains, or events would be delivered twice.
   */
  private static void subscribeOnce(Api api, String url) throws Exception {
    String body = "{\"url\":\"" + url + "\"}";
    Api.Response created = api.post("/v1/webhooks/createEndpoint", body);
    for (int attempt = 1; created.status() == 503 && attempt < 120; attempt++) {
      Thread.sleep(500);
      created = api.post("/v1/webhooks/createEndpoint", body);
    }
    assertThat(created.status()).as(created.body()).isEqualTo(200);
    String kept = created.json().get("id").asString();
    for (JsonNode endpoint : api.post("/v1/webhooks/listEndpoints", "{}").json().get("endpoints")) {
      String id = endpoint.get("id").asString();
      if (endpoint.get("url").asString().equals(url) && !id.equals(kept)) {
        Api.Response deleted = api.post("/v1/webhooks/deleteEndpoint", "{\"id\":\"" + id + "\"}");
        assertThat(deleted.status()).as(deleted.body()).isEqualTo(200);
      }
    }
  }

  /** Sends until answered (neither 503 nor a dropped connection), every 500 ms. */
  private Answer untilAnswered(Api api, String path, String body, String key) throws Exception {
    long first = 0;
    while (true) {
      long at = System.nanoTime();
      int status = status(api, path, body, key);
      if (status != 503 && status != NO_ANSWER) {
        if (first != 0) {
          ledger.commandWait(first, System.nanoTime());
        }
        return new Answer(status, first != 0);
      }
      first = first == 0 ? at : first;
      Thread.sleep(500);
    }
  }

  /** Reads the first queue every 200 ms while the flow runs. */
  private Void probeReads(Api api, String name, AtomicBoolean flowing) throws Exception {
    long firstUnanswered = 0;
    while (flowing.get()) {
      long at = System.nanoTime();
      if (status(api, "/v1/getQueue", Api.body(name, ""), null) == 200) {
        if (firstUnanswered != 0) {
          ledger.readGap(firstUnanswered, System.nanoTime());
          firstUnanswered = 0;
        }
      } else if (firstUnanswered == 0) {
        firstUnanswered = at;
      }
      Thread.sleep(200);
    }
    return null;
  }

  /**
   * One request; a connection failure counts as unavailable ({@link #NO_ANSWER}), and so does a 409
   * saying the same key's first request is still being answered (the client retries both, as API.md
   * asks); a 5xx but 503 is recorded.
   */
  private int status(Api api, String path, String json, String key) {
    HttpRequest.Builder request =
        api.request(path)
            .timeout(Duration.ofSeconds(10))
            .POST(HttpRequest.BodyPublishers.ofString(json));
    if (key != null) {
      request.header("Idempotency-Key", key);
    }
    long at = System.nanoTime();
    int status;
    try {
      Api.Response response = api.send(request);
      status = response.status();
      if (status == 409 && response.body().contains("still being answered")) {
        keyStillAnswered.incrementAndGet();
        status = NO_ANSWER;
      }
    } catch (IllegalStateException e) {
      status = NO_ANSWER;
    }
    if (status == 503 || status == NO_ANSWER) {
      ledger.unavailable(at);
    } else if (status >= 500) {
      otherServerErrors.incrementAndGet();
      unexpected.add("HTTP " + status + " from " + path);
    }
    return status;
  }

  private static String state(Api api, String name, long pr) {
    return QueueSteps.pr(api, name, pr).get("state").asString();
  }

  /** Each PR event delivered ("type repo#n") and the webhook ids it arrived under. */
  private static Map<String, Set<String>> delivered(WebhookReceiver receiver) {
    Map<String, Set<String>> delivered = new ConcurrentHashMap<>();
    for (WebhookReceiver.Received r : receiver.received()) {
      if (r.answeredWith() / 100 == 2 && r.body().contains("\"type\":\"pull_request.")) {
        String type = field(r.body(), "type");
        String repo = field(r.body().substring(r.body().indexOf("\"repository\"")), "name");
        String pr = r.body().replaceAll("(?s).*\"pr_number\":(\\d+).*", "$1");
        delivered
            .computeIfAbsent(type + " " + repo + "#" + pr, k -> ConcurrentHashMap.newKeySet())
            .add(r.header("webhook-id"));
      }
    }
    return delivered;
  }

  private static String field(String json, String name) {
    String key = "\"" + name + "\":\"";
    int start = json.indexOf(key);
    if (start < 0) {
      throw new IllegalArgumentException("no " + name + " in " + json);
    }
    start += key.length();
    return json.substring(start, json.indexOf('"', start));
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static void sleepUntil(long start, int seconds) throws InterruptedException {
    long left = start + TimeUnit.SECONDS.toNanos(seconds) - System.nanoTime();
    if (left > 0) {
      TimeUnit.NANOSECONDS.sleep(left);
    }
  }

  private static void signal(String signal, ProcessHandle process)
      throws IOException, InterruptedException {
    new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
        .inheritIO()
        .start()
        .waitFor();
  }
}

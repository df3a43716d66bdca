package dev.trainyard.standalone.topology;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.ClusterHarness;
import dev.trainyard.standalone.support.GitHost;
import dev.trainyard.standalone.support.QueueSteps;
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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * WIP (issue 32): ChaosIT's flow on a 3-node KRaft cluster (RF 3, min ISR 2) with two gateways:
 * kill -9 the broker leading most command partitions, SIGSTOP another for 40 s, roll the three
 * brokers, roll the workers and the gateways. To be merged with ChaosIT into one flow with two
 * schedules. The chaos run of issue 14: the chart's topology as processes (broker, store, gateway,
 * two queue workers, dispatcher, flaky-tests service) merging 50 git PRs over 10 queues with CI
 * results and a webhook subscriber, while a seeded schedule kills -9 a queue worker three times,
 * restarts the broker (kill -9, started again on its data), and stops the store (SIGSTOP) for 10 s.
 * The local cluster starts every killed process again, as Kubernetes would. Clients retry with an
 * {@code Idempotency-Key} on 503. It prints one {@code CHAOS} line with the figures of
 * bench/README.md and asserts: every PR merged exactly once, no command lost, no webhook
 * undelivered or sent twice under different ids, no 5xx but 503.
 */
class ReplicatedChaosIT {
  private static final long SEED = 20261125L;
  private static final int QUEUES = 10;
  private static final int PRS = 5;
  private static final Duration FLOW_LIMIT = Duration.ofMinutes(8);

  @TempDir Path folder;

  private final AtomicInteger otherServerErrors = new AtomicInteger();
  private final AtomicInteger unavailable = new AtomicInteger();
  private final AtomicLong longestCommandWaitMillis = new AtomicLong();
  private final List<String> log = new ArrayList<>();

  @Test
  void fiftyPullRequestsMergeExactlyOnceThroughKillsABrokerRestartAndAStoreStop() throws Exception {
    Map<String, String> values =
        Map.of(
            "TRAINYARD_CLUSTER_SET",
            "settings.insecureLocalEndpoints=true;topics.replicationFactor=3;gateway.replicas=2;"
                + "settings.webhookRetrySchedule=1s\\,2s\\,5s\\,10s\\,10s\\,20s\\,30s\\,30s",
            "TRAINYARD_CLUSTER_BROKERS",
            "3");
    Instant started = Instant.now();
    try (ClusterHarness cluster = ClusterHarness.start(folder, values);
        WebhookReceiver receiver = new WebhookReceiver()) {
      Api api = cluster.api();
      for (ClusterHarness.Member worker : cluster.members("trainyard-queue-worker")) {
        worker.awaitAssignedPartitions(n -> n > 0);
      }
      Api.Response endpoint =
          api.post("/v1/webhooks/createEndpoint", "{\"url\":\"" + receiver.url() + "\"}");
      assertThat(endpoint.status()).as(endpoint.body()).isEqualTo(200);

      ExecutorService pool = Executors.newFixedThreadPool(3);
      AtomicBoolean flowing = new AtomicBoolean(true);
      try (ClusterQueues queues = ClusterQueues.open(cluster, api, QUEUES, PRS)) {
        List<String> names = queues.names;
        List<GitHost> hosts = queues.hosts;
        Future<Long> reads = pool.submit(() -> probeReads(api, names.get(0), flowing));
        Future<?> submits = pool.submit(() -> submitAll(api, names));
        Future<?> chaos = pool.submit(() -> chaos(cluster));

        chaos.get(FLOW_LIMIT.toSeconds(), TimeUnit.SECONDS);
        submits.get(FLOW_LIMIT.toSeconds(), TimeUnit.SECONDS);
        for (String name : names) {
          for (long pr = 1; pr <= PRS; pr++) {
            QueueSteps.awaitState(api, name, pr, "merged");
          }
        }
        flowing.set(false);
        long longestReadGap = reads.get(30, TimeUnit.SECONDS);

        int mergedOnce = 0;
        for (GitHost host : hosts) {
          List<String> subjects = host.mainSubjects();
          for (long pr = 1; pr <= PRS; pr++) {
            String landed = "Merge pull request #" + pr + ": Add file " + pr;
            if (subjects.stream().filter(landed::equals).count() == 1) {
              mergedOnce++;
            }
          }
        }
        Set<String> expected = new HashSet<>();
        for (String name : names) {
          LongStream.rangeClosed(1, PRS).forEach(p -> expected.add(name + "#" + p));
        }
        Awaitility.await()
            .atMost(Duration.ofMinutes(2))
            .pollInterval(Duration.ofSeconds(1))
            .until(() -> mergedEvents(receiver).keySet().containsAll(expected));
        Map<String, Set<String>> merged = mergedEvents(receiver);
        long undelivered = expected.stream().filter(e -> !merged.containsKey(e)).count();
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
                + merged.values().stream().filter(ids -> ids.size() > 1).count();
        String report =
            String.format(
                "CHAOS seed=%d prs=%d merged-exactly-once=%d commands-lost=%d"
                    + " webhooks-undelivered=%d webhook-events-under-two-ids=%d"
                    + " 5xx-other-than-503=%d 503s=%d longest-read-unavailability=%.1fs"
                    + " longest-submit-wait=%.1fs run=%ds events=%s",
                SEED,
                QUEUES * PRS,
                mergedOnce,
                QUEUES * PRS - mergedOnce,
                undelivered,
                underTwoIds,
                otherServerErrors.get(),
                unavailable.get(),
                longestReadGap / 1000.0,
                longestCommandWaitMillis.get() / 1000.0,
                Duration.between(started, Instant.now()).toSeconds(),
                log);
        System.out.println(report);
        assertThat(mergedOnce).as(report).isEqualTo(QUEUES * PRS);
        assertThat(undelivered).as(report).isZero();
        assertThat(underTwoIds).as(report).isZero();
        assertThat(otherServerErrors.get()).as(report).isZero();
      } finally {
        flowing.set(false);
        pool.shutdownNow();
      }
    }
  }

  /**
   * The schedule, jittered by the seed: kill -9 a worker at ~10 s, ~25 s and ~75 s, the broker at
   * ~40 s, the store stopped from ~55 s for 10 s; submissions run from 0 to ~75 s.
   */
  private Void chaos(ClusterHarness cluster) throws Exception {
    Random random = new Random(SEED);
    long start = System.nanoTime();
    sleepUntil(start, 10 + random.nextInt(4));
    ProcessHandle first = cluster.member("kafka-1").process();
    event("kill -9 kafka-1 (pid " + first.pid() + ")");
    first.destroyForcibly();
    sleepUntil(start, 25 + random.nextInt(4));
    ProcessHandle paused = cluster.member("kafka-2").process();
    event("SIGSTOP kafka-2 for 40 s");
    signal("STOP", paused);
    Thread.sleep(40_000);
    signal("CONT", paused);
    event("SIGCONT kafka-2");
    for (String broker : List.of("kafka-1", "kafka-2", "kafka-3")) {
      Awaitility.await()
          .atMost(Duration.ofSeconds(90))
          .ignoreExceptions()
          .until(() -> cluster.member(broker).process().isAlive());
      ProcessHandle rolled = cluster.member(broker).process();
      event("roll " + broker + " (SIGTERM pid " + rolled.pid() + ")");
      rolled.destroy();
      Thread.sleep(15_000);
    }
    for (String service :
        List.of(
            "trainyard-queue-worker-0",
            "trainyard-queue-worker-1",
            "trainyard-gateway-0",
            "trainyard-gateway-1")) {
      ProcessHandle rolled = cluster.member(service).process();
      event("roll " + service + " (SIGTERM pid " + rolled.pid() + ")");
      rolled.destroy();
      Thread.sleep(10_000);
    }
    return null;
  }

  private void killWorker(ClusterHarness cluster, Random random) throws Exception {
    String name = "trainyard-queue-worker-" + random.nextInt(2);
    // the one killed before may still be starting again: wait for its replacement to be up
    Awaitility.await()
        .atMost(Duration.ofSeconds(90))
        .ignoreExceptions()
        .until(() -> cluster.member(name).process().isAlive());
    ProcessHandle worker = cluster.member(name).process();
    event("kill -9 " + name + " (pid " + worker.pid() + ")");
    worker.destroyForcibly();
  }

  /** Submits every PR, the queues' PRs interleaved, one every 1.5 s; each until it is a 200. */
  private Void submitAll(Api api, List<String> names) throws Exception {
    for (long pr = 1; pr <= PRS; pr++) {
      for (String name : names) {
        String key = "chaos-" + name + "-" + pr;
        String body = Api.prBody(name, pr);
        Instant first = Instant.now();
        while (true) {
          int status = status(api, "/v1/submitPullRequest", body, key);
          if (status == 200) {
            break;
          }
          Thread.sleep(500);
        }
        longestCommandWaitMillis.accumulateAndGet(
            Duration.between(first, Instant.now()).toMillis(), Math::max);
        Thread.sleep(1_500);
      }
    }
    return null;
  }

  /**
   * Reads the first queue every 200 ms while the flow runs.
   *
   * @return the longest time between two answered reads, in ms
   */
  private long probeReads(Api api, String name, AtomicBoolean flowing) throws Exception {
    long lastOk = System.nanoTime();
    long longest = 0;
    while (flowing.get()) {
      if (status(api, "/v1/getQueue", Api.body(name, ""), null) == 200) {
        long now = System.nanoTime();
        longest = Math.max(longest, (now - lastOk) / 1_000_000);
        lastOk = now;
      }
      Thread.sleep(200);
    }
    return longest;
  }

  /** One request; a connection failure counts as unavailable (-1), a 5xx but 503 is recorded. */
  private int status(Api api, String path, String json, String key) {
    HttpRequest.Builder request =
        api.request(path)
            .timeout(Duration.ofSeconds(10))
            .POST(HttpRequest.BodyPublishers.ofString(json));
    if (key != null) {
      request.header("Idempotency-Key", key);
    }
    int status;
    try {
      status = api.send(request).status();
    } catch (IllegalStateException e) {
      status = -1;
    }
    if (status == 503 || status == -1) {
      unavailable.incrementAndGet();
    } else if (status >= 500) {
      otherServerErrors.incrementAndGet();
      event("HTTP " + status + " from " + path);
    }
    return status;
  }

  /** Each merged PR's event ("repo#n") and the webhook ids it arrived under. */
  private static Map<String, Set<String>> mergedEvents(WebhookReceiver receiver) {
    Map<String, Set<String>> merged = new ConcurrentHashMap<>();
    for (WebhookReceiver.Received r : receiver.received()) {
      if (r.answeredWith() / 100 == 2 && r.body().contains("\"type\":\"pull_request.merged\"")) {
        String repo = field(r.body().substring(r.body().indexOf("\"repository\"")), "name");
        String pr = r.body().replaceAll("(?s).*\"pr_number\":(\\d+).*", "$1");
        merged
            .computeIfAbsent(repo + "#" + pr, k -> ConcurrentHashMap.newKeySet())
            .add(r.header("webhook-id"));
      }
    }
    return merged;
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

  private synchronized void event(String what) {
    log.add(what);
    System.out.println("chaos: " + what);
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

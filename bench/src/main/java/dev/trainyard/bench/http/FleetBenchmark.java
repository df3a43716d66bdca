package dev.trainyard.bench.http;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoDatabase;
import dev.trainyard.bench.http.LoadGenerator.Call;
import dev.trainyard.bench.http.LoadGenerator.Result;
import dev.trainyard.bench.merge.BareRepository;
import dev.trainyard.bench.stack.ApiClient;
import dev.trainyard.bench.stack.StandaloneProcess;
import dev.trainyard.common.json.Json;
import dev.trainyard.worker.store.QueueCache;
import dev.trainyard.worker.store.QueueStore;
import dev.trainyard.worker.store.StoredQueue;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.bson.RawBsonDocument;
import org.springframework.data.mongodb.core.MongoTemplate;

/**
 * Many queues of many organizations on one standalone (one worker): what grows with the number of
 * queues rather than with the work (issue 52). It creates {@code orgs} organizations (a token each)
 * and {@code queues} queues spread over them (each organization's repositories {@code r0, r1, …}
 * with ten target branches each); a share of the queues is active (holds PRs, their repositories
 * served from bare repositories under the git root), the rest idle. Then it lets the worker's
 * rounds run over the fleet, submits at a fixed rate to the active queues (warm-up, then measured),
 * and prints:
 *
 * <ul>
 *   <li>the queue document's bytes (every version rewrites it) and an entry document's (written
 *       when its PR changes), p50 and p99, read from the store;
 *   <li>the heap one queue takes as the worker caches it: the bench loads every queue through the
 *       worker's own {@link QueueStore} and measures the heap they hold;
 *   <li>the source-host poller's round time (mean, a bound of the max from the timer's buckets, and
 *       how many rounds took longer than 1 s and than 5 s) and where it read its queues (cache or
 *       store), the ticker's key reads per minute, and the queues the worker caches, from its
 *       meters;
 *   <li>the Prometheus series of the scrape before the fleet existed and after: a meter labelled
 *       per queue or per organization would grow with it;
 *   <li>submit p50/p99 at the rate, with all of the fleet live.
 * </ul>
 *
 * <p>{@code java -jar bench/target/trainyard-bench.jar fleet <jar> [queues] [orgs] [active share]
 * [PRs per active queue] [submit rate/s] [seconds measured]}, by default {@code 10000 100 0.1 5 200
 * 20}.
 */
public final class FleetBenchmark {
  private static final String ADMIN_TOKEN = "bench-admin-token";
  private static final int BRANCHES = 10;
  private static final int SEED_IN_FLIGHT = 16;
  private static final Duration SETTLE = Duration.ofSeconds(30);
  private static final Duration WARM_UP = Duration.ofSeconds(60);

  private FleetBenchmark() {}

  /** Where each queue is: its organization's index and token, repository and branch. */
  private record Fleet(int queues, int orgs, int active, List<String> tokens) {
    String queueBody(int q) {
      return "{\"repo\":{\"host\":\"github.com\",\"owner\":\"fleet\",\"name\":\""
          + repository(q)
          + "\"},\"targetBranch\":\""
          + branch(q)
          + "\"}";
    }

    String repository(int q) {
      return "r" + q / orgs / BRANCHES;
    }

    String branch(int q) {
      return "b" + q / orgs % BRANCHES;
    }

    /** Where the git adapter finds queue {@code q}'s repository under the standalone's git root. */
    Path repositoryDir(Path gitRoot, int q) {
      return gitRoot.resolve("fleet-" + q % orgs + "/github.com/fleet/" + repository(q) + ".git");
    }

    String prBody(int q, long number) {
      String queue = queueBody(q);
      return queue.substring(0, queue.length() - 1) + ",\"pr\":{\"number\":" + number + "}}";
    }

    String token(int q) {
      return tokens.get(q % orgs);
    }

    Call create(long q) {
      return new Call(
          "POST", "/v1/createQueue", queueBody((int) q), "fleet-queue-" + q, token((int) q));
    }

    /** PR {@code number} of the {@code number % active}-th active queue. */
    Call submit(long number, String key) {
      int q = (int) (number % active);
      return new Call("POST", "/v1/submitPullRequest", prBody(q, number), key, token(q));
    }
  }

  public static void main(String[] args) throws Exception {
    Path jar = Path.of(args[0]);
    int queues = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
    int orgs = args.length > 2 ? Integer.parseInt(args[2]) : 100;
    double activeShare = args.length > 3 ? Double.parseDouble(args[3]) : 0.1;
    int prsPerActive = args.length > 4 ? Integer.parseInt(args[4]) : 5;
    double rate = args.length > 5 ? Double.parseDouble(args[5]) : 200;
    Duration measured = Duration.ofSeconds(args.length > 6 ? Long.parseLong(args[6]) : 20);
    int mongoPort = StandaloneProcess.freePort();
    int managementPort = StandaloneProcess.freePort();
    try (StandaloneProcess standalone =
        StandaloneProcess.start(
            jar,
            List.of(),
            Map.of(
                "TRAINYARD_MONGO_PORT", Integer.toString(mongoPort),
                "TRAINYARD_MANAGEMENT_PORT", Integer.toString(managementPort),
                "TRAINYARD_ADMIN_TOKEN", ADMIN_TOKEN))) {
      String metrics = "http://127.0.0.1:" + managementPort + "/actuator/prometheus";
      Scrape empty = Scrape.of(metrics);
      Fleet fleet =
          new Fleet(
              queues,
              orgs,
              Math.max(1, (int) (queues * activeShare)),
              organizations(standalone.baseUrl(), orgs));
      LoadGenerator load = new LoadGenerator(standalone.baseUrl(), standalone.token());
      serve(standalone.data().resolve("git"), fleet, prsPerActive);
      seed(load, fleet, prsPerActive);
      Thread.sleep(SETTLE.toMillis()); // the poller's and the ticker's rounds go over the fleet
      Scrape before = Scrape.of(metrics);
      String atRate = " @ " + (int) rate + "/s";
      Result warmUp =
          load.openLoop(
              "warm-up: submits" + atRate, rate, WARM_UP, i -> fleet.submit(1_000_000 + i, null));
      Scrape warmed = Scrape.of(metrics);
      Result submits =
          load.openLoop(
              "submitPullRequest" + atRate, rate, measured, i -> fleet.submit(2_000_000 + i, null));
      Scrape after = Scrape.of(metrics);
      Duration between = WARM_UP.plus(measured);
      try (MongoClient client = MongoClients.create("mongodb://127.0.0.1:" + mongoPort)) {
        MongoDatabase db = client.getDatabase("trainyard");
        List<Long> queueBytes = sizes(db, "queues");
        List<Long> entryBytes = sizes(db, "queue_entries");
        Heap heapPerQueue = heapPerCachedQueue(client, db);
        Result.printTable(measured, List.of(warmUp, submits));
        System.out.printf(
            Locale.ROOT,
            "%nFLEET queues=%d orgs=%d active=%d (%d PRs each at the start)%n",
            queues,
            orgs,
            fleet.active(),
            prsPerActive);
        printFigures(
            queueBytes,
            entryBytes,
            heapPerQueue,
            new Scrapes(empty, before, warmed, after),
            between,
            submits);
      }
    }
  }

  /** Creates the organizations, each with an API token; their tokens, in order. */
  private static List<String> organizations(String base, int orgs) throws Exception {
    ApiClient admin = new ApiClient(base, ADMIN_TOKEN);
    List<String> tokens = new ArrayList<>();
    for (int o = 0; o < orgs; o++) {
      String slug = "fleet-" + o;
      admin.post("/admin/v1/createOrganization", "{\"slug\":\"" + slug + "\"}");
      String created = admin.post("/admin/v1/createApiToken", "{\"org\":\"" + slug + "\"}");
      tokens.add(Json.mapper().readTree(created).path("token").asString());
    }
    return tokens;
  }

  private static void seed(LoadGenerator load, Fleet fleet, int prsPerActive) {
    Map<Integer, Long> retried = new TreeMap<>();
    Result created =
        load.untilAnswered("seed queues", SEED_IN_FLIGHT, fleet.queues(), fleet::create, retried);
    Result submitted =
        load.untilAnswered(
            "seed PRs",
            SEED_IN_FLIGHT,
            (long) fleet.active() * prsPerActive,
            i -> fleet.submit(i, "fleet-pr-" + i),
            retried);
    System.out.printf(
        Locale.ROOT,
        "seeded %d queues in %.1f s and %d PRs in %.1f s; answers waited out: %s%n",
        fleet.queues(),
        created.seconds(),
        submitted.requests(),
        submitted.seconds(),
        retried);
    if (created.errors() + submitted.errors() > 0) {
      throw new IllegalStateException(
          "seeding failed: " + created.statuses() + " " + submitted.statuses());
    }
  }

  /**
   * The repositories of the active queues, bare under the standalone's git root (the git adapter's
   * layout), with ten branches each and every seeded PR as a ref onto its queue's branch: the
   * poller reads real PRs, and the worker builds real test branches for them. The idle queues'
   * repositories are left out: the poller reads only queues that hold PRs.
   */
  private static void serve(Path gitRoot, Fleet fleet, int prsPerActive) throws IOException {
    long start = System.nanoTime();
    Map<Path, BareRepository> repositories = new HashMap<>();
    try {
      for (int q = 0; q < fleet.active(); q++) {
        Path dir = fleet.repositoryDir(gitRoot, q);
        if (!repositories.containsKey(dir)) {
          BareRepository repository = new BareRepository(dir);
          repositories.put(dir, repository);
          for (int b = 0; b < BRANCHES; b++) {
            repository.branch("b" + b);
          }
        }
      }
      for (long pr = 0; pr < (long) fleet.active() * prsPerActive; pr++) {
        int q = (int) (pr % fleet.active());
        repositories
            .get(fleet.repositoryDir(gitRoot, q))
            .openPr(pr, "f" + pr + ".txt", fleet.branch(q));
      }
    } finally {
      repositories.values().forEach(BareRepository::close);
    }
    System.out.printf(
        Locale.ROOT,
        "served %d repositories with %d PRs in %.1f s%n",
        repositories.size(),
        (long) fleet.active() * prsPerActive,
        (System.nanoTime() - start) / 1e9);
  }

  /** The stored size of every document of {@code collection}, sorted. */
  private static List<Long> sizes(MongoDatabase db, String collection) {
    List<Long> sizes = new ArrayList<>();
    for (RawBsonDocument d : db.getCollection(collection, RawBsonDocument.class).find()) {
      sizes.add((long) d.getByteBuffer().remaining());
    }
    sizes.sort(Long::compare);
    return sizes;
  }

  /**
   * The heap each queue takes as the worker holds it in its cache: every queue loaded through the
   * worker's own store class and kept, the heap in use measured (after collections) before and
   * after.
   */
  private static Heap heapPerCachedQueue(MongoClient client, MongoDatabase db) {
    QueueStore store = new QueueStore(new MongoTemplate(client, "trainyard"), Long.MAX_VALUE / 2);
    List<String> ids = new ArrayList<>();
    db.getCollection("queues")
        .find()
        .projection(new org.bson.Document("_id", 1))
        .forEach(d -> ids.add(d.getString("_id")));
    long before = heapInUse();
    List<StoredQueue> held = new ArrayList<>(ids.size());
    for (String id : ids) {
      store.load(id).ifPresent(held::add);
    }
    long after = heapInUse();
    double perQueue = held.isEmpty() ? 0 : (after - before) / (double) held.size();
    System.out.printf(Locale.ROOT, "loaded %d queues as the worker caches them%n", held.size());
    return new Heap(perQueue, held.stream().mapToLong(QueueCache::weigh).average().orElse(0));
  }

  /** The heap a cached queue took on average, measured, and as the worker's cache estimates it. */
  private record Heap(double measured, double estimated) {}

  private static long heapInUse() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  /**
   * Rounds between the two scrapes that took at most {@code seconds} (a bucket of the timer); NaN
   * when the worker publishes no such bucket (a jar before it did), where every round would
   * otherwise count as longer.
   */
  private static double roundsWithin(Scrape before, Scrape after, String seconds) {
    String name = "trainyard_scm_poll_round_seconds_bucket";
    String label = "le=\"" + seconds + "\"";
    if (after.lines().stream().noneMatch(l -> Scrape.family(l).equals(name) && l.contains(label))) {
      return Double.NaN;
    }
    return after.delta(before, name, label);
  }

  private static String longer(double rounds, double within) {
    return Double.isNaN(within)
        ? "not published"
        : String.format(Locale.ROOT, "%.0f", rounds - within);
  }

  /**
   * The worker's meters before the fleet existed, before the submits, after their warm-up and after
   * the measured phase.
   */
  private record Scrapes(Scrape empty, Scrape before, Scrape warmed, Scrape after) {}

  /**
   * The poller's rounds between two scrapes: their mean and count, the least bucket bound every one
   * of them ended within (the phases' own max, to the timer's bucket; the timer's max keeps only a
   * recent window), and how many took longer than 1 s and than 5 s.
   */
  private static String rounds(Scrape from, Scrape to) {
    String name = "trainyard_scm_poll_round_seconds";
    double rounds = to.delta(from, name + "_count", "");
    if (rounds == 0) {
      return "no rounds";
    }
    double seconds = to.delta(from, name + "_sum", "");
    double bound =
        to.lines().stream()
            .filter(l -> Scrape.family(l).equals(name + "_bucket") && !l.contains("+Inf"))
            .map(l -> l.substring(l.indexOf("le=\"") + 4, l.indexOf("\"}")))
            .filter(le -> to.delta(from, name + "_bucket", "le=\"" + le + "\"") >= rounds)
            .mapToDouble(Double::parseDouble)
            .min()
            .orElse(Double.NaN);
    return String.format(
            Locale.ROOT,
            "mean %.0f ms (%.0f rounds), max %s",
            1000 * seconds / rounds,
            rounds,
            Double.isNaN(bound)
                ? "not bounded (no bucket holds them all)"
                : String.format(Locale.ROOT, "<= %.0f ms", 1000 * bound))
        + "; longer than 1 s / 5 s: "
        + longer(rounds, roundsWithin(from, to, "1.0"))
        + " / "
        + longer(rounds, roundsWithin(from, to, "5.0"));
  }

  private static void printFigures(
      List<Long> queueBytes,
      List<Long> entryBytes,
      Heap heapPerQueue,
      Scrapes scrapes,
      Duration between,
      Result submits) {
    Scrape empty = scrapes.empty();
    Scrape before = scrapes.before();
    Scrape after = scrapes.after();
    double minutes = between.toMillis() / 60_000.0;
    double cached = after.value("trainyard_worker_queues_cached", "");
    System.out.println();
    System.out.println("| figure | value | target |");
    System.out.println("|---|---:|---|");
    row("queue document bytes p50 / p99", percentiles(queueBytes), "p99 <= 16 KB");
    row("entry document bytes p50 / p99", percentiles(entryBytes), "");
    row(
        "heap per cached queue",
        String.format(Locale.ROOT, "%.0f bytes", heapPerQueue.measured()),
        String.format(
            Locale.ROOT,
            "<= 200 MB at 10k queues (here %.1f MB per 10k)",
            heapPerQueue.measured() * 10_000 / 1e6));
    row(
        "the cache's estimate of it (what its budget counts)",
        String.format(
            Locale.ROOT,
            "%.0f bytes (%.2f x measured)",
            heapPerQueue.estimated(),
            heapPerQueue.measured() > 0 ? heapPerQueue.estimated() / heapPerQueue.measured() : 0),
        "");
    row("queues the worker caches", String.format(Locale.ROOT, "%.0f", cached), "");
    row(
        "their heap as the worker's cache estimates it",
        String.format(
            Locale.ROOT,
            "%.1f MiB",
            after.value("trainyard_worker_queues_cached_bytes", "") / (1 << 20)),
        "at most TRAINYARD_WORKER_QUEUE_CACHE_SIZE (128MB: 128 MiB)");
    row("poller rounds", rounds(before, after), "mean <= 1 s; none longer than 1 s");
    row(
        "poller rounds by phase",
        "the "
            + WARM_UP.toSeconds()
            + " s warm-up: "
            + rounds(before, scrapes.warmed())
            + "; measured: "
            + rounds(scrapes.warmed(), after),
        "");
    row(
        "poller reads per minute: cache / store",
        String.format(
            Locale.ROOT,
            "%.0f / %.0f",
            after.delta(before, "trainyard_scm_poll_queues_total", "from=\"cache\"") / minutes,
            after.delta(before, "trainyard_scm_poll_queues_total", "from=\"store\"") / minutes),
        "");
    row(
        "poller: queues not read again per minute (repository and queue unchanged)",
        String.format(
            Locale.ROOT,
            "%.0f",
            after.delta(before, "trainyard_scm_poll_unchanged_total", "") / minutes),
        "");
    row(
        "effects run per minute (all kinds)",
        String.format(
            Locale.ROOT,
            "%.0f",
            after.delta(before, "trainyard_effects_seconds_count", "") / minutes),
        "");
    row(
        "effects waiting for a thread of their host, at the end",
        String.format(Locale.ROOT, "%.0f", after.value("trainyard_effects_waiting", "")),
        "");
    row(
        "ticker keys read per minute",
        String.format(
            Locale.ROOT,
            "%.0f",
            after.delta(before, "trainyard_worker_tick_keys_read_total", "") / minutes),
        "");
    row(
        "Prometheus series: empty / with the fleet",
        empty.series() + " / " + after.series(),
        "no growth with queues or organizations");
    row(
        "submit p50 / p99",
        String.format(Locale.ROOT, "%.1f / %.1f ms", submits.p50Millis(), submits.p99Millis()),
        "p99 <= 100 ms");
    System.out.println();
    System.out.println("families that grew with the fleet: " + after.grownSince(empty));
  }

  private static void row(String figure, String value, String target) {
    System.out.printf(Locale.ROOT, "| %s | %s | %s |%n", figure, value, target);
  }

  private static String percentiles(List<Long> sorted) {
    if (sorted.isEmpty()) {
      return "none";
    }
    return sorted.get((int) (0.5 * (sorted.size() - 1)))
        + " / "
        + sorted.get((int) (0.99 * (sorted.size() - 1)))
        + " ("
        + sorted.size()
        + " documents)";
  }

  /** One scrape of the Prometheus endpoint, as text. */
  private record Scrape(List<String> lines) {
    static Scrape of(String url) throws Exception {
      HttpResponse<String> response =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(url)).build(),
                  HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        throw new IllegalStateException(url + " answered " + response.statusCode());
      }
      return new Scrape(
          Arrays.stream(response.body().split("\n"))
              .filter(l -> !l.isBlank() && !l.startsWith("#"))
              .toList());
    }

    int series() {
      return lines.size();
    }

    /** The sum of the series of {@code name} whose labels contain {@code label} (0: none). */
    double value(String name, String label) {
      double sum = 0;
      for (String line : lines) {
        if (family(line).equals(name) && line.contains(label)) {
          sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
        }
      }
      return sum;
    }

    double delta(Scrape before, String name, String label) {
      return value(name, label) - before.value(name, label);
    }

    Map<String, Integer> bySeriesFamily() {
      Map<String, Integer> counts = new TreeMap<>();
      lines.forEach(l -> counts.merge(family(l), 1, Integer::sum));
      return counts;
    }

    /** The families with more series than in {@code earlier}, with their counts then and now. */
    Map<String, String> grownSince(Scrape earlier) {
      Map<String, Integer> then = earlier.bySeriesFamily();
      Map<String, String> grown = new TreeMap<>();
      bySeriesFamily()
          .forEach(
              (family, n) -> {
                int was = then.getOrDefault(family, 0);
                if (n > was) {
                  grown.put(family, was + " -> " + n);
                }
              });
      return grown;
    }

    private static String family(String line) {
      int end = line.indexOf('{');
      return line.substring(0, end < 0 ? line.indexOf(' ') : end);
    }
  }
}

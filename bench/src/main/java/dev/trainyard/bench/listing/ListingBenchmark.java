package dev.trainyard.bench.listing;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import dev.trainyard.bench.stack.ApiClient;
import dev.trainyard.bench.stack.StandaloneProcess;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.queue.Mergeability;
import dev.trainyard.common.queue.PrState;
import dev.trainyard.common.view.Collections;
import dev.trainyard.common.view.PullRequestRow;
import dev.trainyard.common.view.PullRequestView;
import dev.trainyard.common.view.Readiness;
import dev.trainyard.worker.store.HistoryStore;
import dev.trainyard.worker.store.Outbox;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import org.HdrHistogram.Histogram;
import org.bson.Document;
import org.springframework.data.mongodb.core.MongoTemplate;

/**
 * {@code listPullRequests} on a queue whose history holds {@code rows} concluded PRs: page 1 and a
 * deep page (reached by walking {@code nextCursor}), p50/p99 of each, beside the queue's empty
 * listing measured in the same run.
 *
 * <p>Seeding through the API would take an hour at the rate this machine holds (a submit and a
 * cancel per PR), so the rows are written into the standalone's store by the worker's own {@link
 * HistoryStore}, as the worker writes them when PRs conclude; the queue itself is created through
 * the API. Arguments: {@code jar [rows] [samples] [pages to walk]}.
 */
public final class ListingBenchmark {
  private static final String REPO =
      "\"repo\":{\"host\":\"github.com\",\"owner\":\"bench\",\"name\":\"listing\"},"
          + "\"targetBranch\":\"main\"";
  private static final String EMPTY_REPO =
      "\"repo\":{\"host\":\"github.com\",\"owner\":\"bench\",\"name\":\"empty\"},"
          + "\"targetBranch\":\"main\"";
  private static final int BATCH = 1_000;

  private ListingBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path jar = StandaloneProcess.jar(args);
    int rows = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
    int samples = args.length > 2 ? Integer.parseInt(args[2]) : 100;
    int walk = args.length > 3 ? Integer.parseInt(args[3]) : 500;
    try (StandaloneProcess standalone = StandaloneProcess.start(jar);
        MongoClient store = MongoClients.create(storeUri(standalone.data()))) {
      ApiClient api = new ApiClient(standalone.baseUrl());
      api.post("/v1/createQueue", "{" + REPO + "}");
      api.post("/v1/createQueue", "{" + EMPTY_REPO + "}");
      long started = System.nanoTime();
      seed(store, rows);
      System.out.printf(
          Locale.ROOT,
          "seeded %,d concluded PRs in %.1f s%n",
          rows,
          (System.nanoTime() - started) / 1e9);

      String deep = "";
      long walkStarted = System.nanoTime();
      for (int page = 1; page < walk; page++) {
        deep = cursor(api.post("/v1/listPullRequests", body(REPO, deep)));
      }
      System.out.printf(
          Locale.ROOT,
          "walked to page %d with nextCursor in %.1f s%n",
          walk,
          (System.nanoTime() - walkStarted) / 1e9);
      List<String[]> pages =
          List.of(
              new String[] {"empty queue (baseline)", body(EMPTY_REPO, "")},
              new String[] {"page 1 of " + rows, body(REPO, "")},
              new String[] {"page " + walk + " (nextCursor)", body(REPO, deep)},
              new String[] {"page 1, state=cancelled", stateBody("cancelled")});
      for (int i = 0; i < 5; i++) {
        for (String[] page : pages) {
          api.post("/v1/listPullRequests", page[1]); // JIT, caches
        }
      }
      List<Histogram> latencies = new ArrayList<>();
      for (String[] ignored : pages) {
        latencies.add(new Histogram(60_000_000L, 3));
      }
      for (int i = 0; i < samples; i++) {
        for (int p = 0; p < pages.size(); p++) {
          long t = System.nanoTime();
          api.post("/v1/listPullRequests", pages.get(p)[1]);
          latencies.get(p).recordValue((System.nanoTime() - t) / 1_000);
        }
      }
      System.out.printf(
          Locale.ROOT,
          "%n| listPullRequests (100 a page) | samples | p50 ms | p99 ms | p99 / empty queue |%n"
              + "|---|---:|---:|---:|---:|%n");
      double baseline = latencies.get(0).getValueAtPercentile(99);
      for (int p = 0; p < pages.size(); p++) {
        Histogram h = latencies.get(p);
        System.out.printf(
            Locale.ROOT,
            "| %s | %d | %.1f | %.1f | %.2f |%n",
            pages.get(p)[0],
            samples,
            h.getValueAtPercentile(50) / 1000.0,
            h.getValueAtPercentile(99) / 1000.0,
            h.getValueAtPercentile(99) / baseline);
      }
      System.out.println("\n(target: p99 <= 100 ms with 100,000 concluded PRs)");
    }
  }

  /** The store the standalone chose a port for, as its data directory remembers it. */
  private static String storeUri(Path data) throws IOException {
    Properties remembered = new Properties();
    try (Reader in = Files.newBufferedReader(data.resolve("standalone.properties"))) {
      remembered.load(in);
    }
    return "mongodb://127.0.0.1:" + remembered.getProperty("mongo.port") + "/trainyard";
  }

  /** {@code rows} concluded PRs (merged, and every fourth cancelled) of the listing queue. */
  private static void seed(MongoClient client, int rows) {
    Document queue =
        client
            .getDatabase("trainyard")
            .getCollection(Collections.QUEUES)
            .find(new Document("_id", new Document("$regex", "listing")))
            .first();
    if (queue == null) {
      throw new IllegalStateException("the listing queue was not stored");
    }
    String key = queue.getString("_id");
    long version = ((Number) queue.get("version")).longValue();
    HistoryStore history = new HistoryStore(new MongoTemplate(client, "trainyard"));
    Instant start = Instant.parse("2026-01-01T00:00:00Z");
    List<PullRequestRow> batch = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      PrState state = i % 4 == 3 ? PrState.CANCELLED : PrState.MERGED;
      Instant at = start.plusSeconds(i);
      String id = "00000000-0000-4000-8000-" + String.format(Locale.ROOT, "%012d", i);
      PullRequestView view =
          new PullRequestView(
              id,
              state,
              at,
              100,
              "medium",
              "medium",
              false,
              false,
              i + 1L,
              "Change number " + i,
              "%040x".formatted(i),
              "main",
              "bench",
              new Readiness(false, false, true, Mergeability.MERGEABLE, null),
              false,
              false,
              null,
              List.of(),
              null);
      batch.add(
          new PullRequestRow(
              PullRequestRow.rowId(id, version),
              key,
              id,
              i + 1L,
              "pr-" + i,
              state,
              at,
              at.minusSeconds(600),
              at,
              version,
              null,
              null,
              view,
              null));
      if (batch.size() == BATCH) {
        history.write(List.of(rowsOnly(key, batch)));
        batch.clear();
      }
    }
    history.write(List.of(rowsOnly(key, batch)));
  }

  /** Rows to seed, as the outbox of a version that wrote nothing else would carry them. */
  private static Outbox rowsOnly(String queueId, List<PullRequestRow> rows) {
    return new Outbox("seed", queueId, "bench", 0, rows, List.of(), List.of(), List.of());
  }

  private static String body(String repo, String cursor) {
    return "{"
        + repo
        + ",\"take\":100"
        + (cursor.isEmpty() ? "" : ",\"cursor\":\"" + cursor + "\"")
        + "}";
  }

  private static String stateBody(String state) {
    return "{" + REPO + ",\"take\":100,\"state\":\"" + state + "\"}";
  }

  private static String cursor(String page) {
    return Json.mapper().readTree(page).path("nextCursor").asText("");
  }
}

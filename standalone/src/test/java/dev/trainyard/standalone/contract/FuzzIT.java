package dev.trainyard.standalone.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.TestStack;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A seeded fuzz test of the HTTP edge: well over a thousand malformed bodies (wrong types at every
 * field, deep nesting, huge strings, invalid UTF-8, truncation) to every endpoint. None may answer
 * 5xx, and none may hang.
 */
class FuzzIT {
  private static final int CASES = 1_200;
  private static final List<String> ENDPOINTS =
      List.of(
          "submitPullRequest",
          "cancelPullRequest",
          "restartTestsOnPullRequest",
          "getSubmittedPullRequest",
          "setImpactedTargets",
          "getMergeQueueTestingDetails",
          "listPullRequests",
          "createQueue",
          "getQueue",
          "updateQueue",
          "deleteQueue",
          "ci/reportStatus",
          "scm/git/notify",
          "webhooks/createEndpoint",
          "webhooks/listEndpoints",
          "webhooks/deleteEndpoint",
          "webhooks/rotateSecret",
          "webhooks/listDeliveries",
          "webhooks/redeliver");

  /** Every field path a request of API.md §2–§3 and §6 may carry. */
  private static final List<String> FIELDS =
      List.of(
          "repo",
          "repo.host",
          "repo.owner",
          "repo.name",
          "targetBranch",
          "pr",
          "pr.number",
          "pr.branch",
          "pr.sha",
          "priority",
          "noBatch",
          "predictedRisk",
          "impactedTargets",
          "testRunId",
          "state",
          "since",
          "until",
          "cursor",
          "take",
          "mode",
          "concurrency",
          "bisectionConcurrency",
          "testingTimeoutMinutes",
          "pendingFailureDepth",
          "canOptimisticallyMerge",
          "batch",
          "batchingMinSize",
          "batchingMaxWaitTimeMinutes",
          "enqueueingLabel",
          "requiredStatuses",
          "deleteRequiredStatuses",
          "allowedBotSubmitters",
          "directMergeMode",
          "optimizationMode",
          "mergeMethod",
          "notReadyTimeoutHours",
          "batchingAdaptive",
          "batchingMaxSize",
          "concurrencyAdaptive",
          "ciBudgetMinutesPerMerge",
          "sha",
          "context",
          "url",
          "description",
          "eventTypes",
          "id",
          "endpointId",
          "deliveryId");

  @Test
  void malformedBodiesNeverCauseServerErrorsOrHangs() throws Exception {
    TestStack stack = TestStack.shared();
    Api api = stack.api();
    String repo = Api.uniqueRepo();
    assertThat(api.post("/v1/createQueue", Api.body(repo, "")).status()).isEqualTo(200);
    long seed = Long.getLong("trainyard.seed", System.nanoTime());
    System.out.println("FuzzIT seed " + seed + " (rerun with -Dtrainyard.seed=" + seed + ")");
    Random random = new Random(seed);
    List<byte[]> bodies = new ArrayList<>();
    List<String> paths = new ArrayList<>();
    for (int i = 0; i < CASES; i++) {
      paths.add("/v1/" + ENDPOINTS.get(random.nextInt(ENDPOINTS.size())));
      bodies.add(malformed(random, repo));
    }
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<Api.Response>> answers = new ArrayList<>();
      for (int i = 0; i < CASES; i++) {
        int n = i;
        answers.add(pool.submit(() -> api.postBytes(paths.get(n), bodies.get(n))));
      }
      java.util.Map<Integer, Integer> statuses = new java.util.TreeMap<>();
      for (int i = 0; i < CASES; i++) {
        Api.Response r = answers.get(i).get(30, TimeUnit.SECONDS);
        statuses.merge(r.status(), 1, Integer::sum);
        assertThat(r.status())
            .as(
                "seed %d case %d %s %s -> %s",
                seed, i, paths.get(i), preview(bodies.get(i)), r.body())
            .isLessThan(500);
      }
      System.out.println("FuzzIT statuses " + statuses);
      int clientErrors =
          statuses.entrySet().stream()
              .filter(e -> e.getKey() >= 400)
              .mapToInt(e -> e.getValue())
              .sum();
      assertThat(clientErrors)
          .as("most cases are refused as client errors")
          .isGreaterThan(CASES / 2);
    } finally {
      pool.shutdownNow();
    }
  }

  /** Names that would leave the organization's git folder or name another ref (API.md §1). */
  private static final List<String> HOSTILE_NAMES =
      List.of("..", ".", "../victim", "a/b", "%2e%2e", "a\\\\b", "a b", "a;b", "~root", "x\\u0000");

  private static final List<String> HOSTILE_BRANCHES =
      List.of("../main", "-main", "main.lock", "a..b", "/main", "main/", "a//b", "a:b", "HEAD");

  @Test
  void namesThatCouldEscapeAreRefusedNamingTheFieldOnEveryEndpointThatTakesARepo() {
    Api api = TestStack.shared().api();
    List<String> endpoints = new ArrayList<>(ENDPOINTS.subList(0, 13));
    endpoints.addAll(
        List.of(
            "flaky-tests/get-quarantine-config",
            "flaky-tests/set-quarantine-setting",
            "flaky-tests/link-ticket-to-test-case",
            "flaky-tests/update-repo-settings",
            "flaky-tests/list-unhealthy-tests"));
    int cases = 0;
    for (String endpoint : endpoints) {
      for (String field : List.of("host", "owner", "name")) {
        for (String name : HOSTILE_NAMES) {
          String body =
              new String(
                  withField(validFor(endpoint), "repo." + field, "\"" + name + "\""),
                  StandardCharsets.UTF_8);
          assertRefused(api, endpoint, body, "repo." + field);
          cases++;
        }
      }
      if (!endpoint.startsWith("flaky-tests/") && !endpoint.contains("/")) {
        for (String branch : HOSTILE_BRANCHES) {
          String body =
              new String(
                  withField(validFor(endpoint), "targetBranch", "\"" + branch + "\""),
                  StandardCharsets.UTF_8);
          assertRefused(api, endpoint, body, "targetBranch");
          cases++;
        }
      }
    }
    Api.Response metrics =
        api.send(
            api.request("/v1/getMergeQueueMetrics?repo=..%2Fvictim&repoHost=github.com").GET());
    assertThat(metrics.status()).isEqualTo(400);
    assertThat(cases).isGreaterThan(500);
  }

  private static String validFor(String endpoint) {
    return "{\"repo\":{\"host\":\"github.com\",\"owner\":\"acme\",\"name\":\"rocket\"},"
        + "\"targetBranch\":\"main\",\"pr\":{\"number\":1,\"sha\":\"abc\"},"
        + "\"impactedTargets\":[],\"testRunId\":\"cc58fdda-3258-4f4e-b229-7c5dd9c29324\","
        + "\"sha\":\"0123456789012345678901234567890123456789\",\"context\":\"ci\","
        + "\"state\":\"success\",\"org_url_slug\":\"acme-org\",\"status\":\"FLAKY\","
        + "\"page_query\":{\"page_size\":10},\"test_id\":\"cd7ef2fe-0ec1-5e40-a323-027029579f5b\","
        + "\"setting\":\"UNSPECIFIED\",\"ticket_url\":\"https://tracker/1\"}";
  }

  private static void assertRefused(Api api, String endpoint, String body, String field) {
    Api.Response r = api.post("/v1/" + endpoint, body);
    assertThat(r.status()).as("%s %s -> %s", endpoint, body, r.body()).isEqualTo(400);
    assertThat(r.body()).as("%s %s", endpoint, body).startsWith(field + " must be");
  }

  private static byte[] malformed(Random random, String repo) {
    String valid =
        Api.body(
            repo,
            "\"pr\":{\"number\":"
                + random.nextInt(50)
                + ",\"sha\":\"abc\"},\"impactedTargets\":[\"//a\"],"
                + "\"testRunId\":\"cc58fdda-3258-4f4e-b229-7c5dd9c29324\",\"take\":5,\"priority\":\"high\"");
    return switch (random.nextInt(10)) {
      case 0 -> invalidUtf8(random, valid);
      case 1 -> valid.substring(0, random.nextInt(valid.length())).getBytes(StandardCharsets.UTF_8);
      case 2 -> deepNesting(random);
      case 3 ->
          withField(
              valid,
              FIELDS.get(random.nextInt(FIELDS.size())),
              "\"" + "x".repeat(1 + random.nextInt(2_000_000)) + "\"");
      default ->
          withField(valid, FIELDS.get(random.nextInt(FIELDS.size())), randomValue(random, 0));
    };
  }

  /** Sets {@code path} (creating parents) to the raw JSON {@code value}. */
  private static byte[] withField(String validJson, String path, String value) {
    var mapper = dev.trainyard.common.json.Json.mapper();
    var root = (tools.jackson.databind.node.ObjectNode) mapper.readTree(validJson);
    var node = root;
    String[] parts = path.split("\\.");
    for (int i = 0; i < parts.length - 1; i++) {
      if (!(node.get(parts[i]) instanceof tools.jackson.databind.node.ObjectNode)) {
        node.putObject(parts[i]);
      }
      node = (tools.jackson.databind.node.ObjectNode) node.get(parts[i]);
    }
    String leaf = parts[parts.length - 1];
    node.put(leaf, "__VALUE__");
    return mapper
        .writeValueAsString(root)
        .replace("\"__VALUE__\"", value)
        .getBytes(StandardCharsets.UTF_8);
  }

  private static String randomValue(Random random, int depth) {
    return switch (random.nextInt(depth > 3 ? 12 : 15)) {
      case 0 -> "null";
      case 1 -> "true";
      case 2 -> Long.toString(random.nextLong());
      case 3 -> "-1";
      case 4 -> "4294967296";
      case 5 -> "1.5";
      case 6 -> "1e308";
      case 7 -> "\"" + randomText(random) + "\"";
      case 8 -> "\"\"";
      case 9 -> "\"12a\"";
      case 10 -> "99999999999999999999999999999";
      case 11 -> "\"ALL\"";
      case 12 -> "[" + randomValue(random, depth + 1) + "," + randomValue(random, depth + 1) + "]";
      case 13 ->
          "{\"number\":"
              + randomValue(random, depth + 1)
              + ",\"x\":"
              + randomValue(random, depth + 1)
              + "}";
      default -> "[]";
    };
  }

  private static String randomText(Random random) {
    StringBuilder out = new StringBuilder();
    int length = random.nextInt(40);
    for (int i = 0; i < length; i++) {
      char c = (char) (32 + random.nextInt(0x3000));
      if (c != '"' && c != '\\' && !Character.isSurrogate(c)) {
        out.append(c);
      }
    }
    return out.toString();
  }

  private static byte[] invalidUtf8(Random random, String valid) {
    byte[] bytes = valid.getBytes(StandardCharsets.UTF_8);
    byte[] bad = {
      (byte) 0xC3, (byte) 0x28, (byte) 0xFF, (byte) 0xFE, (byte) 0xED, (byte) 0xA0, (byte) 0x80
    };
    int at = 1 + random.nextInt(bytes.length - 2);
    byte[] out = new byte[bytes.length + 2];
    System.arraycopy(bytes, 0, out, 0, at);
    out[at] = bad[random.nextInt(bad.length)];
    out[at + 1] = bad[random.nextInt(bad.length)];
    System.arraycopy(bytes, at, out, at + 2, bytes.length - at);
    return out;
  }

  private static byte[] deepNesting(Random random) {
    int depth = 100 + random.nextInt(200_000);
    String open = random.nextBoolean() ? "[" : "{\"a\":";
    String close = open.equals("[") ? "]" : "}";
    return ("{\"repo\":" + open.repeat(depth) + "1" + close.repeat(depth) + "}")
        .getBytes(StandardCharsets.UTF_8);
  }

  private static String preview(byte[] body) {
    String text = new String(body, StandardCharsets.UTF_8);
    return text.length() > 200 ? text.substring(0, 200) + "…(" + text.length() + " chars)" : text;
  }
}

package dev.trainyard.worker.scm.github;

import dev.trainyard.common.json.Json;
import dev.trainyard.worker.scm.github.SimulatedRepository.CheckRun;
import dev.trainyard.worker.scm.github.SimulatedRepository.Comment;
import dev.trainyard.worker.scm.github.SimulatedRepository.PullRequest;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@link GithubSimulator}'s webhook deliveries: each repository event becomes a delivery whose
 * payload is one of GitHub's published examples of that event and action (the test hands them in)
 * with this repository's installation, names, numbers and commits filled in, signed with the App's
 * webhook secret, posted in order on one thread as GitHub's {@code X-GitHub-Event}, {@code
 * X-GitHub-Delivery} and {@code X-Hub-Signature-256}.
 */
public final class Webhooks implements AutoCloseable {
  private final GithubSimulator github;
  private final ExecutorService sender = Executors.newSingleThreadExecutor();
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final List<Delivery> deliveries = new CopyOnWriteArrayList<>();
  private volatile Target target;
  private final java.util.Set<String> dropping = java.util.concurrent.ConcurrentHashMap.newKeySet();
  private final java.util.Set<String> holding = java.util.concurrent.ConcurrentHashMap.newKeySet();
  private final List<Runnable> held = new CopyOnWriteArrayList<>();

  /** Published example payloads by event type and action ("" for none). */
  public interface Templates {
    ObjectNode payload(String event, String action);
  }

  /**
   * One attempt of a delivery as sent ({@code attempt}: GitHub's numeric id of the attempt; {@code
   * id}: its {@code X-GitHub-Delivery} guid, the same for a redelivery), and the status the
   * receiver answered (0: not reached).
   */
  public record Delivery(
      long attempt,
      String id,
      String event,
      String action,
      byte[] body,
      int status,
      boolean redelivery,
      java.time.Instant at) {}

  private static final java.util.concurrent.atomic.AtomicLong ATTEMPTS =
      new java.util.concurrent.atomic.AtomicLong(12_000_000);

  private record Target(URI url, String secret, Templates templates) {}

  Webhooks(GithubSimulator github) {
    this.github = github;
  }

  /** Sends every later event to {@code url}, signed with {@code secret}. */
  public void deliverTo(URI url, String secret, Templates templates) {
    target = new Target(url, secret, templates);
  }

  public List<Delivery> deliveries() {
    return List.copyOf(deliveries);
  }

  /** Sends delivery {@code id} again, as GitHub's "Redeliver" does; answers the status. */
  public int redeliver(String id) {
    Delivery original =
        deliveries.stream().filter(d -> d.id().equals(id)).findFirst().orElseThrow();
    return await(
        sender.submit(
            () -> post(original.id(), original.event(), original.action(), original.body(), true)));
  }

  /**
   * {@code POST /app/hook/deliveries/{attempt}/attempts}: the delivery of that attempt is sent
   * again (later, on the sender's thread, as GitHub queues it); false for an attempt it never made.
   */
  boolean redeliverAttempt(long attempt) {
    java.util.Optional<Delivery> original =
        deliveries.stream().filter(d -> d.attempt() == attempt).findFirst();
    original.ifPresent(
        o -> {
          if (redeliveriesLost) {
            attempted(o.id(), o.event(), o.action(), o.body(), 0, true);
          } else {
            sender.submit(() -> post(o.id(), o.event(), o.action(), o.body(), true));
          }
        });
    return original.isPresent();
  }

  private volatile boolean redeliveriesLost;

  /**
   * While {@code lost}, a redelivery trainyard asks for is lost on the way too (the receiver is
   * still unreachable): what it recovers then is the worker's own reading, not a redelivery.
   */
  public void loseRedeliveries(boolean lost) {
    redeliveriesLost = lost;
  }

  /**
   * The next delivery of {@code event} is lost on the way (GitHub does not retry a failed
   * delivery): it is recorded with status 0 and never reaches the receiver.
   */
  public void dropNext(String event) {
    dropping.add(event);
  }

  /** Waits until every delivery queued so far has been answered. */
  public void drain() {
    await(sender.submit(() -> 0));
  }

  void pullRequest(SimulatedRepository repo, PullRequest pr, String action, String label) {
    pullRequest(repo, pr, action, label, pr.user);
  }

  /** A {@code pull_request} delivery whose {@code sender} is {@code sender}. */
  void pullRequest(
      SimulatedRepository repo, PullRequest pr, String action, String label, String sender) {
    ObjectNode payload = payload(repo, "pull_request", action, sender);
    if (payload == null) {
      return;
    }
    payload.put("number", pr.number);
    ObjectNode json = new RepositoryApi(github, repo, "GET", "", "", null).pull(pr);
    payload.set("pull_request", json);
    if (label != null) {
      payload.putObject("label").put("name", label).put("color", "ededed");
    }
    queue(payload, "pull_request", action);
  }

  void push(SimulatedRepository repo, String ref, String before, String after) {
    ObjectNode payload = payload(repo, "push", "", "web-flow");
    if (payload == null) {
      return;
    }
    String zero = "0".repeat(40);
    payload.put("ref", ref);
    payload.put("before", before == null ? zero : before);
    payload.put("after", after == null ? zero : after);
    payload.put("created", before == null);
    payload.put("deleted", after == null);
    queue(payload, "push", "");
  }

  void checkRun(SimulatedRepository repo, CheckRun run) {
    String action = run.status().equals("completed") ? "completed" : "created";
    ObjectNode payload = payload(repo, "check_run", action, "ci-bot");
    if (payload == null) {
      return;
    }
    ObjectNode json = (ObjectNode) payload.get("check_run");
    json.put("id", run.id());
    json.put("name", run.name());
    json.put("head_sha", run.headSha());
    json.put("status", run.status());
    json.put("conclusion", run.conclusion());
    ((ObjectNode) json.get("app")).put("id", run.appId());
    if (json.get("check_suite") instanceof ObjectNode suite) {
      RepositoryApi.suiteJson(suite, repo, run.headSha(), run.appId());
      suite.remove("latest_check_runs_count"); // not part of a check run's suite
      headBranch(suite, repo, run.headSha());
    }
    queue(payload, "check_run", action);
  }

  /** The repository, called {@code old} before, was renamed or transferred (another owner). */
  void repository(SimulatedRepository repo, String old) {
    String[] before = old.split("/");
    boolean transferred = !repo.fullName.startsWith(before[0] + "/");
    String action = transferred ? "transferred" : "renamed";
    ObjectNode payload = payload(repo, "repository", action, "alice");
    if (payload == null) {
      return;
    }
    ObjectNode changes = payload.putObject("changes");
    if (transferred) {
      changes.putObject("owner").putObject("from").putObject("user").put("login", before[0]);
    } else {
      changes.putObject("repository").putObject("name").put("from", before[1]);
    }
    queue(payload, "repository", action);
  }

  /** {@code repos} joined ({@code added}) or left installation {@code id}. */
  void installationRepositories(long id, List<SimulatedRepository> repos, boolean added) {
    Target to = target;
    if (to == null || repos.isEmpty()) {
      return;
    }
    String action = added ? "added" : "removed";
    ObjectNode payload = to.templates().payload("installation_repositories", action).deepCopy();
    payload.put("action", action);
    ObjectNode installation = (ObjectNode) payload.get("installation");
    installation.put("id", id);
    ((ObjectNode) installation.get("account")).put("login", repos.get(0).fullName.split("/")[0]);
    ArrayNode changed = payload.putArray(added ? "repositories_added" : "repositories_removed");
    payload.putArray(added ? "repositories_removed" : "repositories_added");
    for (SimulatedRepository repo : repos) {
      changed
          .addObject()
          .put("id", repo.id())
          .put("name", repo.fullName.split("/")[1])
          .put("full_name", repo.fullName)
          .put("private", false);
    }
    queue(payload, "installation_repositories", action);
  }

  /** App {@code appId}'s suite on {@code sha} completed. */
  void checkSuite(SimulatedRepository repo, String sha, long appId) {
    ObjectNode payload = payload(repo, "check_suite", "completed", "ci-bot");
    if (payload == null) {
      return;
    }
    ObjectNode suite = (ObjectNode) payload.get("check_suite");
    RepositoryApi.suiteJson(suite, repo, sha, appId);
    headBranch(suite, repo, sha);
    queue(payload, "check_suite", "completed");
  }

  /** The branch whose push started a suite on {@code sha}, as GitHub names it (or null). */
  private static void headBranch(ObjectNode suite, SimulatedRepository repo, String sha) {
    String branch = repo.branchAt(sha);
    if (branch == null) {
      suite.putNull("head_branch");
    } else {
      suite.put("head_branch", branch);
    }
  }

  void comment(SimulatedRepository repo, PullRequest pr, Comment comment) {
    ObjectNode payload = payload(repo, "issue_comment", "created", comment.user());
    if (payload == null) {
      return;
    }
    ObjectNode issue = (ObjectNode) payload.get("issue");
    issue.put("number", pr.number);
    issue
        .putObject("pull_request")
        .put("url", github.api() + "/repos/" + repo.fullName + "/pulls/" + pr.number);
    ObjectNode json = (ObjectNode) payload.get("comment");
    json.put("id", comment.id());
    json.put("body", comment.body());
    // when it was written, not the example's date: a command counts pushes from then
    String now =
        java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
    json.put("created_at", now).put("updated_at", now);
    ((ObjectNode) json.get("user"))
        .put("login", comment.user())
        .put("type", comment.user().endsWith("[bot]") ? "Bot" : "User");
    queue(payload, "issue_comment", "created");
  }

  /** The example for {@code event.action} with the repository's names; null when not delivering. */
  private ObjectNode payload(SimulatedRepository repo, String event, String action, String sender) {
    Target to = target;
    if (to == null) {
      return null;
    }
    ObjectNode payload = to.templates().payload(event, action).deepCopy();
    if (!action.isEmpty()) {
      payload.put("action", action);
    }
    String[] names = repo.fullName.split("/");
    ObjectNode repository = (ObjectNode) payload.get("repository");
    repository.put("id", repo.id()).put("name", names[1]).put("full_name", repo.fullName);
    ((ObjectNode) repository.get("owner")).put("login", names[0]);
    payload
        .putObject("installation")
        .put("id", github.installationOf(repo.fullName).orElse(0L))
        .put("node_id", "MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uMQ==");
    if (payload.get("sender") instanceof ObjectNode who) {
      who.put("login", sender);
    }
    return payload;
  }

  /**
   * The next delivery of {@code event} with {@code action} is held back until {@link #releaseHeld}:
   * GitHub does not deliver in order, so a check run's start may arrive after its conclusion.
   */
  public void holdNext(String event, String action) {
    holding.add(event + "." + action);
  }

  /** Sends the deliveries held back so far, late. */
  public void releaseHeld() {
    List<Runnable> late = List.copyOf(held);
    held.clear();
    late.forEach(sender::submit);
    drain();
  }

  private void queue(ObjectNode payload, String event, String action) {
    byte[] body = Json.mapper().writeValueAsBytes(payload);
    String id = UUID.randomUUID().toString();
    if (dropping.remove(event)) {
      attempted(id, event, action, body, 0, false);
      return;
    }
    if (holding.remove(event + "." + action)) {
      held.add(() -> post(id, event, action, body, false));
      return;
    }
    sender.submit(() -> post(id, event, action, body, false));
  }

  private int post(String id, String event, String action, byte[] body, boolean redelivery) {
    Target to = target;
    int status;
    try {
      HttpResponse<String> response =
          http.send(
              HttpRequest.newBuilder(to.url())
                  .timeout(Duration.ofSeconds(10))
                  .header("Content-Type", "application/json")
                  .header("User-Agent", "GitHub-Hookshot/simulator")
                  .header("X-GitHub-Event", event)
                  .header("X-GitHub-Delivery", id)
                  .header("X-Hub-Signature-256", sign(to.secret(), body))
                  .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      status = response.statusCode();
    } catch (IOException e) {
      status = 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      status = 0;
    }
    attempted(id, event, action, body, status, redelivery);
    return status;
  }

  /** Records an attempt of delivery {@code id}, answered {@code status} (0: not reached). */
  private void attempted(
      String id, String event, String action, byte[] body, int status, boolean redelivery) {
    deliveries.add(
        new Delivery(
            ATTEMPTS.incrementAndGet(),
            id,
            event,
            action,
            body,
            status,
            redelivery,
            java.time.Instant.now()));
  }

  static String sign(String secret, byte[] body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return "sha256=" + HexFormat.of().formatHex(mac.doFinal(body));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static int await(Future<Integer> sent) {
    try {
      return sent.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    }
  }

  @Override
  public void close() {
    sender.shutdownNow();
  }
}

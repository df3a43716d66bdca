package dev.trainyard.gateway.ui;

import dev.trainyard.common.net.PathSegments;
import dev.trainyard.common.queue.PrState;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.queue.RepoNames;
import dev.trainyard.common.view.PullRequestListItem;
import dev.trainyard.common.view.PullRequestRow;
import dev.trainyard.common.view.QueueForecast;
import dev.trainyard.common.view.QueueView;
import dev.trainyard.common.view.TestRunDocument;
import dev.trainyard.gateway.audit.AuditEvent;
import dev.trainyard.gateway.audit.AuditLog;
import dev.trainyard.gateway.auth.Organizations;
import dev.trainyard.gateway.auth.RouteGuard;
import dev.trainyard.gateway.auth.Sessions;
import dev.trainyard.gateway.config.GatewayProperties;
import dev.trainyard.gateway.http.ApiException;
import dev.trainyard.gateway.pulls.ImpactedTargetsStore;
import dev.trainyard.gateway.queues.QueueReader;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.bson.Document;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The dashboard's merge-queue pages (API.md §8): the organization's queues, a queue with its runs
 * as a graph, a PR's timeline, and the live stream that tells an open page to read itself again.
 * Everything is read for the session's organization only; another organization's queue is as
 * missing as an unknown one (404).
 */
@Component
public class Dashboard {
  /** How long an open page's event stream lasts before the browser reconnects (re-checked). */
  static final Duration STREAM_LIFETIME = Duration.ofMinutes(5);

  /** How often an open stream sends a comment (for proxies) and checks its session still stands. */
  static final Duration HEARTBEAT = Duration.ofSeconds(15);

  private final Pages pages;
  private final DashboardReader reader;
  private final QueueReader queues;
  private final ImpactedTargetsStore targets;
  private final LiveEvents live;
  private final Organizations organizations;
  private final RouteGuard guard;
  private final InstantSource clock;
  private final LiveStreams streams;
  private final AuditLog auditLog;
  private final String githubHost;

  public Dashboard(
      Pages pages,
      DashboardReader reader,
      QueueReader queues,
      ImpactedTargetsStore targets,
      LiveEvents live,
      Organizations organizations,
      RouteGuard guard,
      InstantSource clock,
      GatewayProperties props,
      AuditLog auditLog) {
    this.auditLog = auditLog;
    this.githubHost = props.github().host();
    this.streams =
        new LiveStreams(
            props.dashboard().streamsPerSession(), props.dashboard().streamsPerOrg(), clock);
    this.pages = pages;
    this.reader = reader;
    this.queues = queues;
    this.targets = targets;
    this.live = live;
    this.organizations = organizations;
    this.guard = guard;
    this.clock = clock;
  }

  /** {@code /ui/}: the organization's queues (an admin first chooses an organization). */
  public Mono<ServerResponse> overview(ServerRequest request) {
    Sessions.Session session = RouteGuard.session(request.exchange());
    if (session.org() == null) {
      return chooseOrganization(request, session);
    }
    return reader
        .queues(session.org())
        .map(q -> QueueLine.of(q))
        .collectList()
        .flatMap(
            lines ->
                pages.render(
                    request,
                    "overview",
                    Map.of("title", "Queues", "queues", lines, "live", "org")));
  }

  /**
   * {@code /ui/organizations}: an admin's session switches to another organization without signing
   * out, a person's to another of theirs; for everyone else there is no such page.
   */
  public Mono<ServerResponse> organizations(ServerRequest request) {
    Sessions.Session session = RouteGuard.session(request.exchange());
    return session.switches()
        ? chooseOrganization(request, session)
        : Mono.error(ApiException.notFound("no such page"));
  }

  private Mono<ServerResponse> chooseOrganization(ServerRequest request, Sessions.Session session) {
    Flux<String> reachable =
        session.admin()
            ? organizations.slugs()
            : Flux.fromIterable(new java.util.TreeSet<>(session.person().memberships().keySet()))
                // a rule may name an organization not created yet
                .filterWhen(organizations::exists);
    return reachable
        .collectList()
        .flatMap(
            orgs ->
                pages.render(
                    request, "organizations", Map.of("title", "Organizations", "orgs", orgs)));
  }

  /** The longest search the find page takes (a branch name). */
  static final int MAX_FIND = 255;

  /**
   * {@code /ui/find?q=…}: "find my PR" across the organization's queues, by number ({@code 42} or
   * {@code #42}) or by head branch; without {@code q} the form alone.
   */
  public Mono<ServerResponse> find(ServerRequest request) {
    String org = RouteGuard.org(request.exchange());
    String q = request.queryParam("q").map(String::strip).orElse("");
    if (q.length() > MAX_FIND) {
      return Mono.error(
          ApiException.badRequest("a search is a PR number or a branch of at most 255 characters"));
    }
    if (q.isEmpty()) {
      return pages.render(
          request, "find", Map.of("title", "Find a pull request", "q", "", "found", List.of()));
    }
    java.util.regex.Matcher number = NUMBER.matcher(q);
    Long wanted = number.matches() ? Long.valueOf(number.group(1)) : null;
    return reader
        .find(org, wanted, q)
        .map(Found::of)
        .collectList()
        .flatMap(
            found ->
                pages.render(
                    request,
                    "find",
                    Map.of(
                        "title", "Find a pull request", "q", q, "found", found, "searched", true)));
  }

  private static final java.util.regex.Pattern NUMBER =
      java.util.regex.Pattern.compile("#?([1-9][0-9]{0,17})");

  /** A PR a search found, formatted. */
  public record Found(
      String repo, String branch, long number, String headBranch, String state, String href) {
    static Found of(PullRequestRow row) {
      QueueKey key = DashboardReader.parseKey(row.queueKey());
      return new Found(
          key.repo().host() + "/" + key.repo().slug(),
          key.branch(),
          row.prNumber(),
          row.headBranch(),
          row.state().wire(),
          Links.pull(key, row.prNumber()));
    }
  }

  /** A queue as the overview lists it, formatted. */
  public record QueueLine(
      String repo,
      String branch,
      String href,
      String state,
      String mode,
      int depth,
      int testing,
      int merged,
      int failed,
      String p50,
      String p95) {
    static QueueLine of(DashboardReader.QueueSummary q) {
      return new QueueLine(
          q.key().repo().host() + "/" + q.key().repo().slug(),
          q.key().branch(),
          Links.queue(q.key()),
          q.state(),
          q.mode(),
          q.depth(),
          q.testing(),
          q.mergedLastHour(),
          q.failedLastHour(),
          Links.duration(q.p50()),
          Links.duration(q.p95()));
    }
  }

  /**
   * {@code /ui/queues/{host}/{owner}/{name}/{branch…}} and {@code …/{branch…}/pulls/{number}}: a
   * branch may hold slashes, so the rest of the path is the branch unless it ends in a PR.
   */
  public Mono<ServerResponse> queueOrPull(ServerRequest request) {
    String org = RouteGuard.org(request.exchange());
    String rest = request.pathVariable("rest");
    rest = rest.startsWith("/") ? rest.substring(1) : rest;
    java.util.regex.Matcher pull = PULL.matcher(rest);
    String branch = pull.matches() ? pull.group(1) : rest;
    QueueKey key;
    try {
      key =
          QueueKey.of(
              org,
              RepoNames.host("host", request.pathVariable("host")),
              RepoNames.segment("owner", request.pathVariable("owner")),
              RepoNames.segment("name", request.pathVariable("name")),
              RepoNames.branch("targetBranch", branch));
    } catch (RuntimeException e) {
      return Mono.error(ApiException.notFound("no such page"));
    }
    if (pull.matches()) {
      long number;
      try {
        number = Long.parseLong(pull.group(2));
      } catch (NumberFormatException e) {
        return Mono.error(ApiException.notFound("no such pull request"));
      }
      return pull(request, key, number);
    }
    return queue(request, key);
  }

  private static final java.util.regex.Pattern PULL =
      java.util.regex.Pattern.compile("(.+)/pulls/([0-9]{1,10})");

  private Mono<ServerResponse> queue(ServerRequest request, QueueKey key) {
    return queues
        .view(key)
        .flatMap(
            view -> {
              List<Long> numbers =
                  view.enqueuedPullRequests().stream().map(PullRequestListItem::prNumber).toList();
              return Mono.zip(
                      reader.heads(key, numbers),
                      reader.liveRuns(key).collectList(),
                      reader.recentlyConcluded(key))
                  .flatMap(
                      all ->
                          pages.render(
                              request,
                              "queue",
                              queueModel(key, view, all.getT1(), all.getT2(), all.getT3())));
            });
  }

  private Map<String, Object> queueModel(
      QueueKey key,
      QueueView view,
      List<PullRequestRow> heads,
      List<TestRunDocument> runs,
      List<PullRequestRow> concluded) {
    Instant now = clock.instant();
    Map<Long, PullRequestRow> headOf =
        heads.stream().collect(Collectors.toMap(PullRequestRow::prNumber, Function.identity()));
    Map<Long, TestRunDocument> runOf = new HashMap<>();
    for (TestRunDocument run : runs) {
      run.details().testedPullRequests().forEach(p -> runOf.put(p.prNumber(), run));
    }
    long testingRuns = runs.stream().filter(r -> "main".equals(lane(r))).count();
    List<PrLine> lines = new ArrayList<>();
    int position = 1;
    for (PullRequestListItem item : view.enqueuedPullRequests()) {
      PullRequestRow head = headOf.get(item.prNumber());
      TestRunDocument run = runOf.get(item.prNumber());
      lines.add(
          new PrLine(
              position++,
              item.prNumber(),
              item.prTitle(),
              item.prAuthor(),
              item.state().wire(),
              item.priorityName() + " (" + item.priorityValue() + ")",
              head == null ? "" : Links.duration(Duration.between(head.submittedAt(), now)),
              WaitsFor.of(item, head, run, view, testingRuns, now),
              view.forecast()
                  .estimatedMergeAt(item.prNumber(), now)
                  .map(at -> "in about " + Links.duration(Duration.between(now, at)))
                  .orElse(""),
              Links.pull(key, item.prNumber()),
              Links.onHost(key, item.prNumber(), githubHost)));
    }
    Map<String, Object> model = new HashMap<>();
    model.put("title", key.repo().slug() + " → " + key.branch());
    model.put("queue", new QueueHeader(key, view));
    model.put("gate", WaitsFor.landingGate(view, now).orElse(""));
    model.put("ciSpend", CiSpendLine.of(view));
    model.put("predictedRisk", PredictedRiskLine.of(view.forecast()));
    model.put("prs", lines);
    model.put("graph", RunBoxes.of(runs));
    model.put("settings", SettingsForm.of(view.settings()));
    model.put("concluded", concluded.stream().map(r -> Conclusion.of(key, r)).toList());
    model.put("live", "queue:" + key.id());
    return model;
  }

  private static String lane(TestRunDocument run) {
    return run.queueType() == null ? TestRunDocument.MAIN : run.queueType();
  }

  /** The queue's name, state and actions. */
  public record QueueHeader(
      String repo,
      String branch,
      String state,
      String mode,
      String href,
      String form,
      String flakyTests) {
    QueueHeader(QueueKey key, QueueView view) {
      this(
          key.repo().host() + "/" + key.repo().slug(),
          key.branch(),
          view.state().wire(),
          view.settings().mode().wire(),
          Links.queue(key),
          Links.queueForm(key),
          Links.flakyTests(key));
    }
  }

  /** One waiting PR of the queue page. */
  public record PrLine(
      int position,
      long number,
      String title,
      String author,
      String state,
      String priority,
      String inQueue,
      String waitsFor,
      String eta,
      String href,
      String onHost) {}

  /** A concluded PR with why. */
  public record Conclusion(
      long number, String title, String state, String reason, String at, String href) {
    static Conclusion of(QueueKey key, PullRequestRow r) {
      return new Conclusion(
          r.prNumber(),
          r.view().prTitle(),
          r.state().wire(),
          r.reason() == null ? "" : r.reason(),
          Links.time(r.concludedAt()),
          Links.pull(key, r.prNumber()));
    }
  }

  private Mono<ServerResponse> pull(ServerRequest request, QueueKey key, long number) {
    return queues
        .requireExists(key)
        .then(reader.head(key, number))
        .switchIfEmpty(
            Mono.error(() -> ApiException.notFound("PR " + number + " was never submitted here")))
        .flatMap(
            head ->
                Mono.zip(
                        reader.history(head.prId()),
                        reader.runsOf(key, number).collectList(),
                        impactedTargets(key, head),
                        queues.forecast(key),
                        auditLog.ofPull(key, number, ACTS_SHOWN).map(Act::of).collectList())
                    .flatMap(
                        all -> {
                          Instant now = clock.instant();
                          QueueForecast forecast = all.getT4();
                          Map<String, Object> model = new HashMap<>();
                          model.put(
                              "position", forecast.position(number).map(p -> "#" + p).orElse(""));
                          model.put(
                              "eta",
                              forecast
                                  .estimatedMergeAt(number, now)
                                  .map(
                                      at ->
                                          "in about "
                                              + Links.duration(Duration.between(now, at))
                                              + " ("
                                              + Links.time(at)
                                              + ")")
                                  .orElse(""));
                          model.put(
                              "waiting",
                              head.state().isFinal()
                                  ? ""
                                  : forecast.waitingReason(number).orElse(""));
                          model.put("title", "#" + number + " " + head.view().prTitle());
                          model.put("pr", head.view());
                          model.put("state", head.state().wire());
                          model.put("open", !head.state().isFinal());
                          model.put("queue", Links.queue(key));
                          model.put("queueName", key.repo().slug() + " → " + key.branch());
                          model.put("form", Links.queueForm(key));
                          model.put("onHost", Links.onHost(key, number, githubHost));
                          model.put("timeline", all.getT1().stream().map(Step::of).toList());
                          model.put(
                              "runs",
                              all.getT2().stream().map(r -> RunBoxes.Box.of(r, null)).toList());
                          model.put("targets", all.getT3());
                          model.put("acts", all.getT5());
                          model.put("live", "queue:" + key.id());
                          return pages.render(request, "pull", model);
                        }));
  }

  /** How many of the newest recorded actions on a PR its page lists. */
  static final int ACTS_SHOWN = 20;

  /** An action someone took on a PR (the audit log's): who, when, how, with what answer. */
  public record Act(String at, String who, String action, String via, int status) {
    static Act of(AuditEvent e) {
      return new Act(Links.time(e.at()), e.actor().name(), e.action(), e.via(), e.status());
    }
  }

  /** One transition of a PR's timeline. */
  public record Step(String at, String state, String reason) {
    static Step of(PullRequestRow r) {
      return new Step(
          Links.time(r.stateChangedAt()), r.state().wire(), r.reason() == null ? "" : r.reason());
    }
  }

  /** What the PR's page says of its impacted targets while it waits (at most 200 named). */
  private Mono<String> impactedTargets(QueueKey key, PullRequestRow head) {
    if (head.state().isFinal()) {
      return Mono.just("(not kept once a PR leaves the queue)");
    }
    return reader
        .entry(key, head.prId())
        .flatMap(
            entry -> {
              Document targetsDoc =
                  entry.map(e -> e.get("impactedTargets", Document.class)).orElse(null);
              if (targetsDoc == null) {
                return Mono.just("none uploaded");
              }
              if (Boolean.TRUE.equals(targetsDoc.getBoolean("all"))) {
                return Mono.just("all targets");
              }
              return targets
                  .union(List.of(targetsDoc.getString("digest")))
                  .map(
                      list ->
                          list.size()
                              + " target"
                              + (list.size() == 1 ? "" : "s")
                              + ": "
                              + String.join(", ", list.subList(0, Math.min(200, list.size())))
                              + (list.size() > 200 ? ", …" : ""));
            });
  }

  /**
   * {@code /ui/events?scope=…}: a signal each time something the open page shows may have changed —
   * {@code org} (the overview), {@code queue:<id>} (a queue or PR page) — for the session's
   * organization only. The signal carries no data; the page reads itself again through its session.
   */
  public Mono<ServerResponse> events(ServerRequest request) {
    String org = RouteGuard.org(request.exchange());
    Sessions.Session session = RouteGuard.session(request.exchange());
    streams.check(session, org); // refused with 429 before the answer starts
    String scope = request.queryParam("scope").orElse("org");
    // the place is taken when the body is subscribed and given back when it ends, however it ends
    Flux<ServerSentEvent<String>> stream =
        Flux.using(
            () -> streams.open(session, org),
            opened -> signals(org, scope, opened),
            LiveStreams.Stream::close);
    return Pages.secured(ServerResponse.ok())
        .contentType(MediaType.TEXT_EVENT_STREAM)
        .header("X-Accel-Buffering", "no")
        .body(stream, ServerSentEvent.class);
  }

  private Flux<ServerSentEvent<String>> signals(
      String org, String scope, LiveStreams.Stream opened) {
    Flux<ServerSentEvent<String>> signals =
        live.changes()
            .filter(c -> org.equals(c.org()))
            .filter(c -> concerns(scope, c))
            .map(c -> ServerSentEvent.<String>builder().event("changed").data(c.type()).build());
    Flux<ServerSentEvent<String>> heartbeat =
        Flux.interval(HEARTBEAT).map(i -> ServerSentEvent.<String>builder().comment("").build());
    // a sign-out or a revoked token, on any replica, ends the stream within a heartbeat and the
    // shared check's period; the browser's reconnect then meets the guard (401) and the page goes
    // to the sign-in page
    Mono<Boolean> ended =
        Flux.interval(HEARTBEAT).concatMap(i -> opened.alive(guard::alive)).filter(a -> !a).next();
    return Flux.just(ServerSentEvent.<String>builder().event("open").data("").build())
        .concatWith(Flux.merge(signals, heartbeat))
        .take(STREAM_LIFETIME)
        .takeUntilOther(ended);
  }

  static boolean concerns(String scope, LiveEvents.Change change) {
    if (scope.equals("org")) {
      return change.queue() != null;
    }
    if (scope.startsWith("queue:")) {
      return scope.substring("queue:".length()).equals(change.queue());
    }
    if (scope.equals("flaky")) {
      return change.type().startsWith("test_case.");
    }
    return false;
  }

  /**
   * {@code /{org}/merge-queue/{host}/{owner}/{name}/{branch…}/{number}} — the {@code
   * http_details_url} of events and test runs — leads to the PR's page.
   */
  public Mono<ServerResponse> detailsUrl(ServerRequest request) {
    String rest = request.pathVariable("rest");
    java.util.regex.Matcher m = DETAILS.matcher(rest);
    if (!m.matches()) {
      return Mono.error(ApiException.notFound("no such page"));
    }
    return Pages.seeOther(
        "/ui/queues/"
            + PathSegments.path(m.group(1), m.group(2), m.group(3), m.group(4))
            + "/pulls/"
            + m.group(5)
            + "?org="
            + PathSegments.segment(request.pathVariable("org")));
  }

  private static final java.util.regex.Pattern DETAILS =
      java.util.regex.Pattern.compile("/([^/]+)/([^/]+)/([^/]+)/(.+)/([0-9]{1,10})");

  /** Whether a PR state is one the queue page lists as waiting. */
  static boolean waiting(PrState state) {
    return !state.isFinal();
  }
}

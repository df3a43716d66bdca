package dev.trainyard.gateway.queues;

import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.json.InvalidRequestException;
import dev.trainyard.common.queue.DirectMergeMode;
import dev.trainyard.common.queue.MergeCommitMessage;
import dev.trainyard.common.queue.MergeMethod;
import dev.trainyard.common.queue.MergeWindow;
import dev.trainyard.common.queue.OptimizationMode;
import dev.trainyard.common.queue.QueueFreeze;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.queue.QueueMode;
import dev.trainyard.common.queue.QueueSettingsPatch;
import dev.trainyard.common.queue.QueueState;
import dev.trainyard.gateway.auth.Caller;
import dev.trainyard.gateway.auth.Permission;
import dev.trainyard.gateway.auth.RouteGuard;
import dev.trainyard.gateway.commands.CommandBus;
import dev.trainyard.gateway.http.ApiException;
import dev.trainyard.gateway.http.JsonResponses;
import dev.trainyard.gateway.http.RequestBody;
import dev.trainyard.gateway.scm.github.GithubLandingCheck;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/** createQueue, getQueue, updateQueue, deleteQueue. */
@Component
public class QueueHandler {
  private static final long MAX = RequestBody.MAX_UINT32;
  private static final int MAX_STATUS_LENGTH = 255;
  private static final int MAX_WINDOWS = 50;
  private final CommandBus commands;
  private final QueueReader reader;
  private final RepositoryQueues repositoryQueues;
  private final GithubLandingCheck landing;

  public QueueHandler(
      CommandBus commands,
      QueueReader reader,
      RepositoryQueues repositoryQueues,
      GithubLandingCheck landing) {
    this.commands = commands;
    this.reader = reader;
    this.repositoryQueues = repositoryQueues;
    this.landing = landing;
  }

  /**
   * Creates the queue; {@code mergeMethod} may be given here too (GitHub may refuse the default on
   * a branch), and is checked against the host as at {@code updateQueue}.
   */
  public Mono<ServerResponse> create(ServerRequest request) {
    return JsonResponses.body(request)
        .flatMap(
            body -> {
              QueueKey key = body.queueKey(RouteGuard.org(request.exchange()));
              QueueMode mode = body.optionalEnum("mode", QueueMode.class).orElse(QueueMode.SINGLE);
              long concurrency = body.optionalLong("concurrency", 1, MAX).orElse(5L);
              MergeMethod method = body.optionalEnum("mergeMethod", MergeMethod.class).orElse(null);
              return sameRepositoryOtherCase(key)
                  .then(landing.check(key, method == null ? MergeMethod.MERGE_COMMIT : method))
                  .then(
                      Mono.defer(
                          () ->
                              commands.sendExpectingAcceptance(
                                  key, new QueueCommand.CreateQueue(mode, concurrency, method))))
                  .then(JsonResponses.empty());
            });
  }

  /**
   * 409 when the organization has a queue on the same branch of a repository whose name differs
   * only in case: GitHub's names are case-insensitive, so both would be one repository's queue and
   * take each other's deliveries.
   */
  private Mono<Void> sameRepositoryOtherCase(QueueKey key) {
    return repositoryQueues
        .find(key.org(), key.repo(), true)
        .flatMap(
            queues ->
                queues.stream()
                    .map(RepositoryQueues.RepositoryQueue::key)
                    .filter(other -> other.branch().equals(key.branch()) && !other.equals(key))
                    .findFirst()
                    .<Mono<Void>>map(
                        other ->
                            Mono.error(
                                new ApiException(
                                    HttpStatus.CONFLICT,
                                    "a queue for "
                                        + other.repo().slug()
                                        + " onto "
                                        + other.branch()
                                        + " exists; repository names are compared without case")))
                    .orElse(Mono.empty()));
  }

  public Mono<ServerResponse> get(ServerRequest request) {
    return JsonResponses.body(request)
        .flatMap(body -> reader.view(body.queueKey(RouteGuard.org(request.exchange()))))
        .flatMap(view -> JsonResponses.ok(QueueJson.render(view, true)));
  }

  public Mono<ServerResponse> update(ServerRequest request) {
    return JsonResponses.body(request)
        .flatMap(
            body -> {
              QueueKey key = body.queueKey(RouteGuard.org(request.exchange()));
              QueueSettingsPatch patch = patch(body);
              if (patch.changesSettings()) {
                // pausing, resuming and draining are an operator's; settings an administrator's
                Caller.require(request.exchange(), Permission.ADMINISTER);
              }
              String ifSettingsVersion = settingsVersion(body);
              Mono<Void> checked =
                  patch.mergeMethod() == null
                      ? Mono.empty()
                      : landing.check(key, patch.mergeMethod());
              return checked
                  .then(
                      Mono.defer(
                          () ->
                              commands.sendExpectingAcceptance(
                                  key, new QueueCommand.UpdateQueue(patch, ifSettingsVersion))))
                  .then(reader.view(key))
                  .flatMap(view -> JsonResponses.ok(QueueJson.render(view, false)));
            });
  }

  /** {@code ifSettingsVersion}: absent, or the 16 hex digits of a {@code settingsVersion}. */
  private static String settingsVersion(RequestBody body) {
    if (body.node("ifSettingsVersion").isEmpty()) {
      return null;
    }
    return body.optionalString("ifSettingsVersion")
        .filter(v -> v.matches("[0-9a-f]{16}"))
        .orElseThrow(
            () ->
                new InvalidRequestException(
                    "ifSettingsVersion must be the settingsVersion getQueue answered: 16 hex"
                        + " digits"));
  }

  public Mono<ServerResponse> delete(ServerRequest request) {
    return JsonResponses.body(request)
        .flatMap(
            body ->
                commands.sendExpectingAcceptance(
                    body.queueKey(RouteGuard.org(request.exchange())),
                    new QueueCommand.DeleteQueue()))
        .then(JsonResponses.empty());
  }

  /**
   * freezeQueue: nothing lands until unfreezeQueue or {@code until}; a queue that does not exist is
   * a 404 from the engine.
   */
  public Mono<ServerResponse> freeze(ServerRequest request) {
    return JsonResponses.body(request)
        .flatMap(
            body -> {
              QueueKey key = body.queueKey(RouteGuard.org(request.exchange()));
              String reason =
                  body.optionalString("reason")
                      .filter(r -> !r.isBlank())
                      .orElseThrow(
                          () ->
                              ApiException.badRequest(
                                  "reason is required: say why the queue is frozen"));
              if (reason.length() > QueueFreeze.MAX_REASON
                  || reason.chars().anyMatch(c -> c < 0x20)) {
                throw ApiException.badRequest(
                    "reason must be one line of at most " + QueueFreeze.MAX_REASON + " characters");
              }
              Instant until = body.optionalInstant("until").orElse(null);
              if (until != null && !until.isAfter(Instant.now())) {
                throw ApiException.badRequest("until must be in the future");
              }
              return commands
                  .sendExpectingAcceptance(key, new QueueCommand.FreezeQueue(reason, until))
                  .then(JsonResponses.empty());
            });
  }

  public Mono<ServerResponse> unfreeze(ServerRequest request) {
    return JsonResponses.body(request)
        .flatMap(
            body ->
                commands.sendExpectingAcceptance(
                    body.queueKey(RouteGuard.org(request.exchange())),
                    new QueueCommand.UnfreezeQueue()))
        .then(JsonResponses.empty());
  }

  /**
   * {@code mergeWindows}: an array of {@code {days, start, end, timeZone}} (at most {@value
   * #MAX_WINDOWS}); {@code []} removes them. Each part is checked and named in the error.
   */
  private static List<MergeWindow> mergeWindows(RequestBody body) {
    return body.node("mergeWindows")
        .map(
            n -> {
              if (!n.isArray()) {
                throw ApiException.badRequest(
                    "mergeWindows must be an array of {days, start, end, timeZone}");
              }
              if (n.size() > MAX_WINDOWS) {
                throw ApiException.badRequest(
                    "mergeWindows may hold at most " + MAX_WINDOWS + " windows");
              }
              List<MergeWindow> windows = new ArrayList<>();
              for (int i = 0; i < n.size(); i++) {
                windows.add(window(i, n.get(i)));
              }
              return windows;
            })
        .orElse(null);
  }

  private static MergeWindow window(int index, JsonNode n) {
    String field = "mergeWindows[" + index + "]";
    if (!n.isObject()) {
      throw ApiException.badRequest(field + " must be an object {days, start, end, timeZone}");
    }
    JsonNode days = n.get("days");
    if (days == null || !days.isArray()) {
      throw ApiException.badRequest(field + ".days must be an array of day names (mon..sun)");
    }
    List<String> names = new ArrayList<>();
    for (JsonNode day : days) {
      if (!day.isString()) {
        throw ApiException.badRequest(field + ".days must be an array of day names (mon..sun)");
      }
      names.add(day.asString());
    }
    try {
      return MergeWindow.of(
          index, names, text(n, field, "start"), text(n, field, "end"), text(n, field, "timeZone"));
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest(e.getMessage());
    }
  }

  private static String text(JsonNode window, String field, String name) {
    JsonNode n = window.get(name);
    if (n == null || !n.isString()) {
      throw ApiException.badRequest(field + "." + name + " must be a string");
    }
    return n.asString();
  }

  static QueueSettingsPatch patch(RequestBody body) {
    QueueState state = body.optionalEnum("state", QueueState.class).orElse(null);
    if (state == QueueState.SWITCHING_MODES) {
      throw ApiException.badRequest("state must be one of running|paused|draining");
    }
    boolean deleteRequired = body.optionalBoolean("deleteRequiredStatuses").orElse(false);
    if (deleteRequired && body.has("requiredStatuses")) {
      throw ApiException.badRequest(
          "requiredStatuses and deleteRequiredStatuses cannot be given together");
    }
    return new QueueSettingsPatch(
        state,
        body.optionalEnum("mode", QueueMode.class).orElse(null),
        body.optionalLong("concurrency", 1, MAX).orElse(null),
        body.optionalLong("bisectionConcurrency", 1, MAX).orElse(null),
        body.optionalLong("testingTimeoutMinutes", 1, MAX).orElse(null),
        body.optionalLong("pendingFailureDepth", 0, MAX).orElse(null),
        body.optionalBoolean("canOptimisticallyMerge").orElse(null),
        body.optionalBoolean("batch").orElse(null),
        body.optionalLong("batchingMinSize", 1, MAX).orElse(null),
        body.optionalLong("batchingMaxWaitTimeMinutes", 0, MAX).orElse(null),
        body.optionalBoolean("createPrsForTestingBranches").orElse(null),
        body.optionalBoolean("commentsEnabled").orElse(null),
        body.optionalBoolean("commandsEnabled").orElse(null),
        body.optionalBoolean("statusCheckEnabled").orElse(null),
        body.optionalBoolean("extensionEnabled").orElse(null),
        body.optionalBoolean("labelCommandsEnabled").orElse(null),
        body.optionalBoolean("stateLabelsEnabled").orElse(null),
        body.optionalName("enqueueingLabel").orElse(null),
        body.isExplicitNull("enqueueingLabel"),
        body.optionalStringList("requiredStatuses", MAX_STATUS_LENGTH).orElse(null),
        deleteRequired,
        body.optionalStringList("allowedBotSubmitters", MAX_STATUS_LENGTH).orElse(null),
        body.optionalEnum("directMergeMode", DirectMergeMode.class).orElse(null),
        body.optionalEnum("optimizationMode", OptimizationMode.class).orElse(null),
        body.optionalEnum("mergeMethod", MergeMethod.class).orElse(null),
        body.optionalLong("notReadyTimeoutHours", 0, MAX).orElse(null),
        mergeWindows(body),
        body.optionalBoolean("batchingAdaptive").orElse(null),
        body.optionalLong("batchingMaxSize", 1, MAX).orElse(null),
        body.optionalBoolean("concurrencyAdaptive").orElse(null),
        mergeCommitMessage(body),
        body.isExplicitNull("mergeCommitMessage"),
        body.optionalLong("ciBudgetMinutesPerMerge", 0, MAX).orElse(null));
  }

  /**
   * {@code mergeCommitMessage}: {@code {title, body}} templates, checked (a 400 names the unknown
   * placeholder); JSON null goes back to the merge method's default.
   */
  private static MergeCommitMessage mergeCommitMessage(RequestBody body) {
    return body.node("mergeCommitMessage")
        .filter(n -> !n.isNull())
        .map(
            n -> {
              if (!n.isObject()) {
                throw ApiException.badRequest(
                    "mergeCommitMessage must be an object {title, body} or null");
              }
              JsonNode title = n.get("title");
              JsonNode text = n.get("body");
              if (title == null || !title.isString()) {
                throw ApiException.badRequest(
                    "mergeCommitMessage.title must be a string (a one-line template)");
              }
              if (text != null && !text.isNull() && !text.isString()) {
                throw ApiException.badRequest("mergeCommitMessage.body must be a string");
              }
              for (String key : n.propertyNames()) {
                if (!key.equals("title") && !key.equals("body")) {
                  throw ApiException.badRequest(
                      "mergeCommitMessage has no key " + key + " (only title and body)");
                }
              }
              try {
                return MergeCommitMessage.of(
                    title.asString(), text == null || text.isNull() ? "" : text.asString());
              } catch (IllegalArgumentException e) {
                throw ApiException.badRequest(e.getMessage());
              }
            })
        .orElse(null);
  }
}

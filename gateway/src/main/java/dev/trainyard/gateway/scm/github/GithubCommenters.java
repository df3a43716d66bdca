package dev.trainyard.gateway.scm.github;

import dev.trainyard.common.github.GithubClient;
import dev.trainyard.common.queue.RepoRef;
import dev.trainyard.gateway.scm.github.GithubEvents.Intent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Who may command a queue from a PR comment or label (API.md §6): GitHub says what permission the
 * commenter or labeller has on the repository ({@code admin}, {@code maintain} and {@code write}
 * may; {@code triage} can label but not command), and which branch the PR is onto, so the command
 * reaches that branch's queues. Without the App's credentials on the gateway ({@code
 * TRAINYARD_GITHUB_APP_ID}) no comment or person's label is a command.
 */
@Component
public class GithubCommenters {
  private static final Logger log = LoggerFactory.getLogger(GithubCommenters.class);
  private static final Set<String> WRITERS = Set.of("admin", "maintain", "write");
  private final GithubClient client;

  private final ReplyBudget budget = new ReplyBudget(java.time.InstantSource.system());

  public GithubCommenters(GithubApp app) {
    this.client = app.client().orElse(null);
  }

  /**
   * The command of {@code comment} when its author may give it, else why not ({@link
   * Intent.Ignored}); empty when GitHub cannot say (logged: the commenter can comment again).
   */
  public Mono<Intent> authorize(long installation, RepoRef repo, Intent.Comment comment) {
    if (client == null) {
      log.info("a /trainyard comment was ignored: TRAINYARD_GITHUB_APP_ID is not set");
      return Mono.empty();
    }
    return Mono.fromCallable(() -> Optional.ofNullable(ask(installation, repo, comment)))
        .subscribeOn(Schedulers.boundedElastic())
        .onErrorResume(
            e -> {
              log.warn("could not check a /trainyard comment on {}: {}", repo.slug(), e.toString());
              return Mono.just(Optional.empty());
            })
        .flatMap(Mono::justOrEmpty);
  }

  private Intent ask(long installation, RepoRef repo, Intent.Comment comment) {
    String base = "/repos/" + repo.owner() + "/" + repo.name();
    if (!comment.bot() && !writer(installation, base, comment.login())) {
      log.info(
          "/trainyard comment by {} on {}#{} ignored: no write access",
          comment.login(),
          repo.slug(),
          comment.number());
      return new Intent.Ignored(
          comment.number(),
          comment.login(),
          "only people with write access to " + repo.slug() + " may command its merge queue");
    }
    GithubClient.Answer pr =
        client.as(installation, "GET", base + "/pulls/" + comment.number(), null);
    if (!pr.ok()) {
      throw new UncheckedIOException(
          new IOException("GitHub did not show PR #" + comment.number() + ": " + pr.message()));
    }
    return new Intent.Command(
        comment.number(),
        pr.body().path("base").path("ref").asString(""),
        comment.submit(),
        comment.priority(),
        comment.noBatch(),
        comment.bot() ? comment.login() : null,
        pr.body().path("head").path("sha").asString(null),
        comment.login());
  }

  /**
   * Whether GitHub says {@code login} may write to {@code repo}: false without the App's
   * credentials on the gateway, or when GitHub cannot say (logged; a label can be added again).
   */
  public Mono<Boolean> mayWrite(long installation, RepoRef repo, String login) {
    if (client == null || login.isEmpty()) {
      log.info(
          "a label on {} was ignored: the labeller's write access cannot be checked", repo.slug());
      return Mono.just(false);
    }
    String base = "/repos/" + repo.owner() + "/" + repo.name();
    return Mono.fromCallable(() -> writer(installation, base, login))
        .subscribeOn(Schedulers.boundedElastic())
        .doOnNext(
            writes -> {
              if (!writes) {
                log.info("a label by {} on {} was ignored: no write access", login, repo.slug());
              }
            })
        .onErrorResume(
            e -> {
              log.warn("could not check a label on {}: {}", repo.slug(), e.toString());
              return Mono.just(false);
            });
  }

  /**
   * Replies {@code body} to {@code login} on PR {@code number}: why a {@code /trainyard} comment
   * was not acted on, within the {@link ReplyBudget}. Best effort: a reply GitHub refuses is
   * logged, and the delivery is not applied again for it.
   */
  public Mono<Void> reply(long installation, RepoRef repo, long number, String login, String body) {
    if (client == null) {
      return Mono.empty();
    }
    if (!budget.take(installation, repo.slug(), number, login)) {
      log.info(
          "no reply to {} on {}#{}: the replies' budget is spent ({})",
          login,
          repo.slug(),
          number,
          body);
      return Mono.empty();
    }
    String path = "/repos/" + repo.owner() + "/" + repo.name() + "/issues/" + number + "/comments";
    return Mono.fromCallable(() -> client.as(installation, "POST", path, Map.of("body", body)))
        .subscribeOn(Schedulers.boundedElastic())
        .doOnNext(
            answer -> {
              if (!answer.ok()) {
                log.warn("could not reply on {}#{}: {}", repo.slug(), number, answer.message());
              }
            })
        .onErrorResume(
            e -> {
              log.warn("could not reply on {}#{}: {}", repo.slug(), number, e.toString());
              return Mono.empty();
            })
        .then();
  }

  /**
   * Whether GitHub says {@code login} may write to the repository. A Bot account is not asked: its
   * commands reach only the queues that list it ({@code allowedBotSubmitters}).
   */
  private boolean writer(long installation, String base, String login) {
    GithubClient.Answer permission =
        client.as(
            installation,
            "GET",
            base
                + "/collaborators/"
                + java.net.URLEncoder.encode(login, java.nio.charset.StandardCharsets.UTF_8)
                + "/permission",
            null);
    return permission.ok()
        && (WRITERS.contains(permission.body().path("role_name").asString(""))
            || WRITERS.contains(permission.body().path("permission").asString("")));
  }
}

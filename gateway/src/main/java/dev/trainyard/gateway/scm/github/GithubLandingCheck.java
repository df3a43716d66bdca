package dev.trainyard.gateway.scm.github;

import dev.trainyard.common.github.GithubClient;
import dev.trainyard.common.github.LandingRules;
import dev.trainyard.common.github.ListPages;
import dev.trainyard.common.queue.MergeMethod;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.gateway.http.ApiException;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.MissingNode;

/**
 * Refuses, at {@code createQueue} and {@code updateQueue}, a merge method GitHub will refuse on the
 * queue's branch (400 naming {@code mergeMethod}, with the reason), so no PR is tested only to be
 * refused at landing. Asked only where it can be answered: a repository on the App's GitHub, in an
 * installation bound to the queue's organization. When GitHub cannot say in time (unreachable,
 * limited, not installed yet), the setting is taken: a landing GitHub refuses later is shown on the
 * queue with GitHub's words.
 */
@Component
public class GithubLandingCheck {
  private static final Logger log = LoggerFactory.getLogger(GithubLandingCheck.class);
  static final Duration PATIENCE = Duration.ofSeconds(5);
  private final GithubApp app;
  private final GithubInstallations installations;

  public GithubLandingCheck(GithubApp app, GithubInstallations installations) {
    this.app = app;
    this.installations = installations;
  }

  /** Completes empty when {@code method} may land on {@code key}'s branch; else a 400. */
  public Mono<Void> check(QueueKey key, MergeMethod method) {
    Optional<GithubClient> client = app.client();
    if (client.isEmpty() || !app.serves(key.repo())) {
      return Mono.empty();
    }
    String base = "/repos/" + key.repo().owner() + "/" + key.repo().name();
    return Mono.fromCallable(() -> installation(client.get(), base))
        .subscribeOn(Schedulers.boundedElastic())
        .flatMap(Mono::justOrEmpty)
        .filterWhen(
            installation ->
                installations.servedOrg(installation).map(key.org()::equals).defaultIfEmpty(false))
        .flatMap(
            installation ->
                Mono.fromCallable(
                        () -> refusal(client.get(), installation, base, key.branch(), method))
                    .subscribeOn(Schedulers.boundedElastic()))
        .timeout(PATIENCE)
        .onErrorResume(
            e -> {
              log.info(
                  "could not ask GitHub whether {} may land by {}: {}",
                  key.id(),
                  method.wire(),
                  e.toString());
              return Mono.empty();
            })
        .flatMap(
            refusal ->
                refusal.isEmpty()
                    ? Mono.empty()
                    : Mono.error(
                        ApiException.badRequest(
                            "mergeMethod "
                                + method.wire()
                                + ": GitHub would refuse every landing on "
                                + key.branch()
                                + ": "
                                + refusal.get())));
  }

  private static Optional<Long> installation(GithubClient client, String base) {
    GithubClient.Answer answer = client.asApp("GET", base + "/installation", null);
    return answer.ok() ? Optional.of(answer.body().path("id").asLong()) : Optional.empty();
  }

  private static Optional<String> refusal(
      GithubClient client, long installation, String base, String branch, MergeMethod method) {
    GithubClient.Answer repository = client.as(installation, "GET", base, null);
    if (!repository.ok()) {
      return Optional.empty();
    }
    GithubClient.Answer rules =
        ListPages.all(
            path -> client.as(installation, "GET", path, null),
            base + "/rules/branches/" + GithubClient.segments(branch));
    JsonNode list = rules.ok() ? rules.body() : JsonNodeFactory.instance.arrayNode();
    // classic protection's strict flag: shown only to an App with administration access
    GithubClient.Answer classic =
        method == MergeMethod.MERGE_COMMIT
            ? new GithubClient.Answer(404, MissingNode.getInstance())
            : client.as(
                installation,
                "GET",
                base
                    + "/branches/"
                    + GithubClient.segments(branch)
                    + "/protection/required_status_checks",
                null);
    return LandingRules.refusal(
        method,
        repository.body(),
        list,
        classic.status() == 200 ? classic.body() : MissingNode.getInstance());
  }
}

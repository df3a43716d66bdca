package dev.trainyard.flaky.repo;

import dev.trainyard.flaky.http.Caller;
import dev.trainyard.flaky.http.JsonAnswers;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * {@code POST /v1/flaky-tests/update-repo-settings {repo, target_branch?, auto_quarantine?}}
 * (extension): the branch the rate rules read (unset: runs uploaded without a PR number and not on
 * a {@code trainyard-merge/} branch, see {@code classify.TargetBranch}) and whether flaky tests are
 * quarantined automatically (default off).
 */
public class RepoSettingsHandler {
  private final RepoSettingsStore settings;

  public RepoSettingsHandler(RepoSettingsStore settings) {
    this.settings = settings;
  }

  public Mono<ServerResponse> update(ServerRequest request) {
    String org = Caller.org(request);
    return JsonAnswers.body(request)
        .flatMap(
            body -> {
              Repo repo = body.repo();
              String target = body.optionalBranch("target_branch").orElse(null);
              Boolean auto = body.optionalBoolean("auto_quarantine").orElse(null);
              return Mono.fromRunnable(() -> settings.update(org, repo, target, auto))
                  .subscribeOn(Schedulers.boundedElastic())
                  .then(JsonAnswers.empty());
            });
  }
}

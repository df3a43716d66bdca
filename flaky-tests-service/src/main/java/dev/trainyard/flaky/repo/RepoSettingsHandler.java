package dev.trainyard.flaky.repo;

import dev.trainyard.flaky.classify.TargetBranch;
import dev.trainyard.flaky.http.Caller;
import dev.trainyard.flaky.http.JsonAnswers;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * {@code POST /v1/flaky-tests/update-repo-settings {repo, target_branch?, auto_quarantine?}}
 * (extension): the branch the rate rules read (unset: the source host's default branch, else {@code
 * main}, {@code master} or {@code develop}, see {@link TargetBranch}; {@code refs/heads/} is
 * dropped) and whether flaky tests are quarantined automatically (default off).
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
              String target =
                  body.optionalBranch("target_branch").map(TargetBranch::branchName).orElse(null);
              Boolean auto = body.optionalBoolean("auto_quarantine").orElse(null);
              return Mono.fromRunnable(() -> settings.update(org, repo, target, auto))
                  .subscribeOn(Schedulers.boundedElastic())
                  .then(JsonAnswers.empty());
            });
  }
}

package dev.trainyard.gateway.scm.github;

import dev.trainyard.common.command.QueueCommand.ReportStatus;
import dev.trainyard.common.github.AppIds;
import dev.trainyard.gateway.scm.github.GithubEvents.Intent;
import java.time.InstantSource;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * A delivered commit status made by an App's Bot account carries that App's id (API.md §6 "Which
 * checks must pass"), so it counts for a required check bound to the App: Vercel, Codecov and
 * Jenkins Apps report statuses, not check runs. GitHub is asked once a day per App ({@link
 * AppIds}); while it cannot say, the status is sent without an App, as before.
 */
@Component
public class GithubStatusApps {
  private static final Logger log = LoggerFactory.getLogger(GithubStatusApps.class);
  private final AppIds apps;

  public GithubStatusApps(GithubApp app) {
    this.apps =
        app.client()
            .map(
                client ->
                    new AppIds(path -> client.asApp("GET", path, null), InstantSource.system()))
            .orElse(null);
  }

  /** {@code status} with the id of the App whose Bot made it, when GitHub names one. */
  Mono<Intent> withApp(Intent.Status status) {
    if (apps == null || status.bot() == null || status.report().appId() != null) {
      return Mono.just(status);
    }
    return Mono.fromCallable(() -> apps.ofBot(status.bot(), "Bot"))
        .subscribeOn(Schedulers.boundedElastic())
        .onErrorResume(
            e -> {
              log.info("could not ask GitHub which App {} is: {}", status.bot(), e.toString());
              return Mono.just(Optional.empty());
            })
        .map(
            id -> {
              if (id.isEmpty()) {
                return status;
              }
              ReportStatus r = status.report();
              return new Intent.Status(
                  new ReportStatus(
                      r.sha(), r.context(), r.state(), r.url(), r.description(), id.get(), null),
                  status.bot());
            });
  }
}

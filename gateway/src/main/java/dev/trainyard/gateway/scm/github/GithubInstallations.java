package dev.trainyard.gateway.scm.github;

import dev.trainyard.common.github.GithubInstallation;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.view.Collections;
import dev.trainyard.gateway.http.ApiException;
import java.time.InstantSource;
import org.bson.Document;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.data.domain.Sort;
import org.springframework.data.mongodb.core.FindAndModifyOptions;
import org.springframework.data.mongodb.core.ReactiveMongoTemplate;
import org.springframework.data.mongodb.core.query.Criteria;
import org.springframework.data.mongodb.core.query.Query;
import org.springframework.data.mongodb.core.query.Update;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Which organization each GitHub App installation serves (API.md §6): one organization per
 * installation, set by the admin API or, for a new installation, by {@code
 * TRAINYARD_GITHUB_DEFAULT_ORG}.
 */
@Component
public class GithubInstallations {
  private final ReactiveMongoTemplate mongo;
  private final InstantSource clock;

  public GithubInstallations(ReactiveMongoTemplate mongo, InstantSource clock) {
    this.mongo = mongo;
    this.clock = clock;
  }

  /** The organization installation {@code id} serves now: bound and not suspended. */
  public Mono<String> servedOrg(long id) {
    return mongo
        .findOne(byId(id), Document.class, Collections.GITHUB_INSTALLATIONS)
        .map(d -> Json.mapper().convertValue(d, GithubInstallation.class))
        .filter(i -> i.org() != null && !i.suspended())
        .map(GithubInstallation::org);
  }

  /** Binds {@code id} to {@code org}; 409 when another organization holds it. */
  public Mono<Void> bind(long id, String org) {
    Query free =
        Query.query(
            Criteria.where("_id")
                .is(id)
                .orOperator(Criteria.where("org").is(null), Criteria.where("org").is(org)));
    return mongo
        .upsert(
            free,
            Update.update("org", org).set("updatedAt", now()).setOnInsert("suspended", false),
            Collections.GITHUB_INSTALLATIONS)
        .onErrorMap(
            DuplicateKeyException.class,
            e ->
                new ApiException(
                    HttpStatus.CONFLICT,
                    "installation " + id + " is bound to another organization"))
        .then();
  }

  /**
   * Every installation GitHub reported, by id: the account it is installed on, the organization it
   * serves (null: waiting for {@code bindGithubInstallation}), whether it is suspended.
   */
  public Flux<GithubInstallation> all() {
    return mongo
        .find(
            new Query().with(Sort.by("_id")).limit(MAX_LISTED),
            Document.class,
            Collections.GITHUB_INSTALLATIONS)
        .map(d -> Json.mapper().convertValue(d, GithubInstallation.class));
  }

  /** Installations one listing shows at most. */
  static final int MAX_LISTED = 10_000;

  /** Unbinds {@code id}; 404 when it serves no organization. */
  public Mono<Void> unbind(long id) {
    return mongo
        .updateFirst(
            Query.query(Criteria.where("_id").is(id).and("org").ne(null)),
            Update.update("org", null).set("updatedAt", now()),
            Collections.GITHUB_INSTALLATIONS)
        .filter(r -> r.getMatchedCount() == 1)
        .switchIfEmpty(
            Mono.error(
                () -> ApiException.notFound("installation " + id + " serves no organization")))
        .then();
  }

  /**
   * Records what GitHub said of installation {@code id}: created (bound to {@code defaultOrg} when
   * it is set and the installation is not bound yet), deleted, suspended, unsuspended.
   */
  public Mono<Void> changed(long id, String account, String action, String defaultOrg) {
    return switch (action) {
      case "deleted" -> mongo.remove(byId(id), Collections.GITHUB_INSTALLATIONS).then();
      case "suspend", "unsuspend" ->
          mongo
              .upsert(
                  byId(id),
                  Update.update("suspended", action.equals("suspend"))
                      .set("account", account)
                      .set("updatedAt", now()),
                  Collections.GITHUB_INSTALLATIONS)
              .then();
      default ->
          mongo
              .findAndModify(
                  byId(id),
                  Update.update("account", account)
                      .set("suspended", false)
                      .set("updatedAt", now())
                      .setOnInsert("org", defaultOrg),
                  FindAndModifyOptions.options().upsert(true),
                  Document.class,
                  Collections.GITHUB_INSTALLATIONS)
              .then();
    };
  }

  private String now() {
    return dev.trainyard.common.json.Timestamps.format(clock.instant());
  }

  private static Query byId(long id) {
    return Query.query(Criteria.where("_id").is(id));
  }
}

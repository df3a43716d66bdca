package dev.trainyard.gateway.scm;

import dev.trainyard.common.git.GitRemote;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.net.OutboundGuard;
import dev.trainyard.common.net.OutboundRefusedException;
import dev.trainyard.common.queue.OrgRepo;
import dev.trainyard.common.queue.RepoRef;
import dev.trainyard.common.view.Collections;
import dev.trainyard.common.webhook.SecretBox;
import dev.trainyard.gateway.auth.RouteGuard;
import dev.trainyard.gateway.config.GatewayProperties;
import dev.trainyard.gateway.config.SecretsAtRest;
import dev.trainyard.gateway.http.ApiException;
import dev.trainyard.gateway.http.JsonResponses;
import dev.trainyard.gateway.http.RequestBody;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.bson.Document;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.data.mongodb.core.ReactiveMongoTemplate;
import org.springframework.data.mongodb.core.query.Criteria;
import org.springframework.data.mongodb.core.query.Query;
import org.springframework.data.mongodb.core.query.Update;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.util.retry.Retry;

/**
 * {@code /v1/scm/git/setRemote}, {@code getRemote} and {@code deleteRemote}: a repository the git
 * adapter reaches on a git server over HTTPS (username and password or token) or SSH (a private
 * key) instead of under the git root. The URL passes the outbound address guard (loopback only with
 * {@code TRAINYARD_GIT_ALLOW_LOOPBACK}); credentials are sealed with the secrets key and never
 * returned. Storing a registration does not reach the server: the workers do, on the next notify or
 * poll, and a PR of a remote they cannot fetch stays {@code not_ready} with the reason.
 */
@Component
public class GitRemoteHandler {
  private static final int MAX_PASSWORD = 4096;
  private static final int MAX_PRIVATE_KEY = 16 * 1024;
  private final ReactiveMongoTemplate mongo;
  private final InstantSource clock;
  private final SecretsAtRest secrets;
  private final OutboundGuard guard;

  public GitRemoteHandler(
      ReactiveMongoTemplate mongo,
      GatewayProperties props,
      SecretsAtRest secrets,
      InstantSource clock) {
    this.mongo = mongo;
    this.clock = clock;
    this.secrets = secrets;
    this.guard =
        OutboundGuard.resolving(
            OutboundGuard.Policy.gitRemotes(
                props.git().allowLoopback(), props.outbound().allowedHosts()));
  }

  public Mono<ServerResponse> setRemote(ServerRequest request) {
    String org = RouteGuard.org(request.exchange());
    return JsonResponses.body(request)
        .flatMap(
            body -> {
              RepoRef repo = body.repo();
              String url = url(body);
              boolean ssh = url.regionMatches(true, 0, "ssh://", 0, 6);
              String username = body.optionalName("username").orElse(null);
              String password = secret(body, "password", MAX_PASSWORD).orElse(null);
              String privateKey = secret(body, "privateKey", MAX_PRIVATE_KEY).orElse(null);
              if (ssh && password != null) {
                throw ApiException.badRequest(
                    "password is for https remotes; an ssh remote takes privateKey");
              }
              if (ssh && privateKey == null) {
                throw ApiException.badRequest("privateKey is required for an ssh remote");
              }
              if (!ssh && privateKey != null) {
                throw ApiException.badRequest(
                    "privateKey is for ssh remotes; an https remote takes username and password");
              }
              if (privateKey != null) {
                checkPrivateKey(privateKey);
              }
              Optional<String> hostKey =
                  body.optionalString("hostKey")
                      .filter(v -> !v.isBlank())
                      .map(SshHostKey::normalized);
              if (!ssh && hostKey.isPresent()) {
                throw ApiException.badRequest(
                    "hostKey is for ssh remotes; an https remote is checked by its certificate");
              }
              OrgRepo orgRepo = new OrgRepo(org, repo);
              return checked(withoutSshUser(url))
                  .then(
                      Mono.defer(
                              () ->
                                  stored(orgRepo)
                                      .flatMap(
                                          old -> {
                                            GitRemote remote =
                                                new GitRemote(
                                                    GitRemote.id(orgRepo),
                                                    org,
                                                    repo,
                                                    url,
                                                    username,
                                                    seal(
                                                        password,
                                                        GitRemote.place(orgRepo, "password")),
                                                    seal(
                                                        privateKey,
                                                        GitRemote.place(orgRepo, "privateKey")),
                                                    hostKey.orElse(keptHostKey(old, url)),
                                                    clock.instant());
                                            return replace(remote, old);
                                          }))
                          .retryWhen(Retry.max(3).filter(DuplicateKeyException.class::isInstance)));
            })
        .then(JsonResponses.empty());
  }

  public Mono<ServerResponse> getRemote(ServerRequest request) {
    String org = RouteGuard.org(request.exchange());
    return JsonResponses.body(request)
        .flatMap(body -> remote(org, body.repo()))
        .flatMap(
            remote -> {
              Map<String, Object> shown = new LinkedHashMap<>();
              shown.put("url", remote.url());
              shown.put("username", remote.username());
              shown.put("hasPassword", remote.password() != null);
              shown.put("hasPrivateKey", remote.privateKey() != null);
              shown.put("hostKey", remote.hostKey());
              return JsonResponses.ok(shown);
            });
  }

  public Mono<ServerResponse> deleteRemote(ServerRequest request) {
    String org = RouteGuard.org(request.exchange());
    return JsonResponses.body(request)
        .flatMap(body -> remote(org, body.repo()))
        .flatMap(
            remote ->
                mongo.remove(
                    Query.query(Criteria.where("_id").is(remote.id())), Collections.GIT_REMOTES))
        .then(JsonResponses.empty());
  }

  private Mono<GitRemote> remote(String org, RepoRef repo) {
    String id = GitRemote.id(new OrgRepo(org, repo));
    return mongo
        .findOne(Query.query(Criteria.where("_id").is(id)), Document.class, Collections.GIT_REMOTES)
        .map(d -> Json.mapper().convertValue(d, GitRemote.class))
        .switchIfEmpty(
            Mono.error(
                () ->
                    ApiException.notFound(
                        "no remote is registered for " + repo.host() + "/" + repo.slug())));
  }

  /**
   * The host key a registration keeps when it is stored again without one: the key pinned or
   * accepted for the same SSH server (host and port), so registering again opens no new first use;
   * none for another server.
   */
  private static String keptHostKey(Optional<GitRemote> old, String url) {
    return old.filter(o -> o.hostKey() != null && server(o.url()).equals(server(url)))
        .map(GitRemote::hostKey)
        .orElse(null);
  }

  /** The registration stored for {@code repo}, if any. */
  private Mono<Optional<GitRemote>> stored(OrgRepo repo) {
    return mongo
        .findOne(
            Query.query(Criteria.where("_id").is(GitRemote.id(repo))),
            Document.class,
            Collections.GIT_REMOTES)
        .map(d -> Optional.of(Json.mapper().convertValue(d, GitRemote.class)))
        .defaultIfEmpty(Optional.empty());
  }

  /**
   * Stores {@code remote} in place of {@code old} only while the stored host key is still the one
   * read: a key a worker recorded meanwhile is not erased (the write fails, and is tried again on
   * what is stored then).
   */
  private Mono<Void> replace(GitRemote remote, Optional<GitRemote> old) {
    Document doc = Json.document(remote);
    String readKey = old.map(GitRemote::hostKey).orElse(null);
    Query same = Query.query(Criteria.where("_id").is(remote.id()).and("hostKey").is(readKey));
    Update update = new Update();
    doc.forEach(
        (field, value) -> {
          if (!field.equals("_id")) {
            update.set(field, value);
          }
        });
    return mongo.upsert(same, update, Collections.GIT_REMOTES).then();
  }

  /** An ssh URL's host and port as the connection goes to them, without the user. */
  private static String server(String url) {
    URI parsed = URI.create(withoutSshUser(url));
    return parsed.getScheme().toLowerCase(Locale.ROOT)
        + "://"
        + parsed.getHost().toLowerCase(Locale.ROOT)
        + ":"
        + parsed.getPort();
  }

  private static String url(RequestBody body) {
    String url = body.url();
    if (!url.contains("://")) {
      throw ApiException.badRequest(
          "url must be an absolute URL such as https://git.example.com/owner/name.git or"
              + " ssh://git@git.example.com/owner/name.git (the scp-like host:path form is not"
              + " accepted)");
    }
    return url;
  }

  /**
   * The URL the guard checks: an ssh URL may name its user ({@code ssh://git@host/...}), which is
   * not a credential; a password in any URL is refused by the guard.
   */
  private static String withoutSshUser(String url) {
    int authority = url.indexOf("://") + 3;
    int end = url.indexOf('/', authority);
    String host = end < 0 ? url.substring(authority) : url.substring(authority, end);
    int at = host.lastIndexOf('@');
    if (!url.toLowerCase(Locale.ROOT).startsWith("ssh://") || at < 0) {
      return url;
    }
    if (host.substring(0, at).contains(":")) {
      throw ApiException.badRequest(
          "url must carry no password: an ssh remote authenticates with privateKey");
    }
    return url.substring(0, authority) + url.substring(authority + at + 1);
  }

  private static Optional<String> secret(RequestBody body, String field, int max) {
    Optional<String> value = body.optionalString(field).filter(v -> !v.isEmpty());
    if (value.isPresent() && value.get().length() > max) {
      throw ApiException.badRequest(field + " must be at most " + max + " characters");
    }
    return value;
  }

  private static void checkPrivateKey(String key) {
    String trimmed = key.strip();
    if (!trimmed.startsWith("-----BEGIN ") || !trimmed.contains("PRIVATE KEY-----")) {
      throw ApiException.badRequest(
          "privateKey must be a private key in OpenSSH or PEM form (-----BEGIN ... PRIVATE"
              + " KEY-----)");
    }
    if (trimmed.contains("ENCRYPTED")) {
      throw ApiException.badRequest("privateKey must not be protected by a passphrase");
    }
  }

  /**
   * The URL passes the guard: scheme, spelling, and every address its host resolves to. A name that
   * does not resolve here is stored (the workers may see other DNS, and check again before every
   * connection); unreachable is not a bad request. Resolves names: off the event loop.
   */
  private Mono<Void> checked(String url) {
    return Mono.<Void>fromCallable(
            () -> {
              OutboundGuard.Target target = guard.target(url);
              try {
                guard.addresses(target.host());
              } catch (UnknownHostException e) {
                // reported by the workers as the reason its PRs are not ready
              }
              return null;
            })
        .subscribeOn(Schedulers.boundedElastic())
        .onErrorMap(OutboundRefusedException.class, e -> ApiException.badRequest(e.getMessage()));
  }

  private String seal(String secret, SecretBox.Place place) {
    return secret == null ? null : secrets.seal(secret, place);
  }
}

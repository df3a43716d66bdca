package dev.trainyard.gateway.config;

import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of the gateway (environment: {@code TRAINYARD_ADMIN_TOKEN}, {@code
 * TRAINYARD_BOOTSTRAP_ORG}, {@code TRAINYARD_BOOTSTRAP_TOKEN}, …).
 *
 * @param adminToken the token of {@code /admin/v1/*}; admin endpoints are closed when unset
 * @param bootstrap the organization (and token) created at start when absent
 * @param replyTimeout how long a mutation waits for the worker before answering 503
 * @param maxBodyBytes the request body limit (413 beyond it)
 * @param webhook the key that encrypts webhook secrets and what endpoint URLs may target
 * @param flakyTests where the flaky-tests service listens ({@code TRAINYARD_FLAKY_TESTS_URL})
 * @param rateLimitPerOrg requests a second each organization may make across every replica ({@code
 *     TRAINYARD_RATE_LIMIT_PER_ORG}, default 200, bursts to twice that; 0 = no limit)
 * @param outbound hosts the outbound address guard does not check
 * @param git what remote git URLs may target ({@code TRAINYARD_GIT_ALLOW_LOOPBACK})
 * @param github the GitHub App's webhook secret, the host it serves and its default organization
 * @param dashboard the limits of the dashboard's sign-in and live pages
 * @param audit how long the audit log keeps an event
 */
@ConfigurationProperties("trainyard")
public record GatewayProperties(
    String adminToken,
    Bootstrap bootstrap,
    Duration replyTimeout,
    Long maxBodyBytes,
    Webhook webhook,
    FlakyTests flakyTests,
    Integer rateLimitPerOrg,
    Outbound outbound,
    Git git,
    Github github,
    Dashboard dashboard,
    Audit audit) {

  public static final long DEFAULT_MAX_BODY_BYTES = 20L * 1024 * 1024;
  public static final int DEFAULT_RATE_LIMIT_PER_ORG = 200;

  public GatewayProperties {
    bootstrap = bootstrap == null ? new Bootstrap(null, null) : bootstrap;
    replyTimeout = replyTimeout == null ? Duration.ofMillis(4500) : replyTimeout;
    maxBodyBytes = maxBodyBytes == null ? DEFAULT_MAX_BODY_BYTES : maxBodyBytes;
    webhook = webhook == null ? new Webhook(null, null, null, null) : webhook;
    flakyTests = flakyTests == null ? new FlakyTests(null, null, null) : flakyTests;
    rateLimitPerOrg = rateLimitPerOrg == null ? DEFAULT_RATE_LIMIT_PER_ORG : rateLimitPerOrg;
    outbound = outbound == null ? new Outbound(null) : outbound;
    git = git == null ? new Git(null) : git;
    github = github == null ? new Github(null, null, null, null, null, null, null, null) : github;
    dashboard = dashboard == null ? new Dashboard(null, null, null, null) : dashboard;
    audit = audit == null ? new Audit(null) : audit;
    if (rateLimitPerOrg < 0) {
      throw new IllegalArgumentException("TRAINYARD_RATE_LIMIT_PER_ORG must be 0 or more");
    }
  }

  /**
   * The flaky-tests service behind {@code /v1/flaky-tests/*}: its base URL (unset: those routes
   * answer 503), how long a call may take (uploads get {@code uploadTimeout}, they parse and
   * classify up to 100 MiB).
   */
  public record FlakyTests(String url, Duration timeout, Duration uploadTimeout) {
    public FlakyTests {
      timeout = timeout == null ? Duration.ofMillis(4500) : timeout;
      uploadTimeout = uploadTimeout == null ? Duration.ofMinutes(2) : uploadTimeout;
    }
  }

  /**
   * {@code TRAINYARD_WEBHOOK_KEY} (32 bytes, base64; shared with the dispatcher and the workers),
   * {@code TRAINYARD_WEBHOOK_PREVIOUS_KEYS} (comma-separated: keys being rotated out, which only
   * open), {@code TRAINYARD_WEBHOOK_ALLOW_LOOPBACK}, {@code TRAINYARD_WEBHOOK_ALLOW_HTTP}.
   */
  public record Webhook(String key, String previousKeys, Boolean allowLoopback, Boolean allowHttp) {
    public Webhook {
      allowLoopback = allowLoopback != null && allowLoopback;
      allowHttp = allowHttp != null && allowHttp;
    }
  }

  /**
   * {@code TRAINYARD_OUTBOUND_ALLOWED_HOSTS}: host names (comma-separated) that URLs may target
   * whatever they resolve to — internal receivers an operator trusts.
   */
  public record Outbound(List<String> allowedHosts) {
    public Outbound {
      allowedHosts = allowedHosts == null ? List.of() : List.copyOf(allowedHosts);
    }
  }

  /** {@code TRAINYARD_GIT_ALLOW_LOOPBACK}: remote git URLs may target loopback addresses. */
  public record Git(Boolean allowLoopback) {
    public Git {
      allowLoopback = allowLoopback != null && allowLoopback;
    }
  }

  /**
   * {@code TRAINYARD_GITHUB_WEBHOOK_SECRET} (unset: the webhook answers 503), {@code
   * TRAINYARD_GITHUB_HOST} (the {@code repo.host} the App serves, default {@code github.com}),
   * {@code TRAINYARD_GITHUB_DEFAULT_ORG} (the organization a new installation of an account in
   * {@code TRAINYARD_GITHUB_DEFAULT_ORG_ACCOUNTS} serves); {@code TRAINYARD_GITHUB_APP_ID} with
   * {@code TRAINYARD_GITHUB_PRIVATE_KEY} (or {@code _FILE}) and {@code TRAINYARD_GITHUB_API_URL}
   * let the gateway ask GitHub who may command the queue from a comment.
   */
  public record Github(
      String webhookSecret,
      String host,
      String defaultOrg,
      java.util.List<String> defaultOrgAccounts,
      String appId,
      String privateKey,
      String privateKeyFile,
      String apiUrl) {
    public Github {
      apiUrl = apiUrl == null || apiUrl.isBlank() ? "https://api.github.com" : apiUrl;
      webhookSecret = webhookSecret == null || webhookSecret.isEmpty() ? null : webhookSecret;
      host = host == null || host.isBlank() ? "github.com" : host;
      defaultOrg = defaultOrg == null || defaultOrg.isBlank() ? null : defaultOrg;
      defaultOrgAccounts =
          defaultOrgAccounts == null
              ? java.util.List.of()
              : defaultOrgAccounts.stream().map(String::strip).filter(a -> !a.isEmpty()).toList();
    }

    /**
     * The organization a new installation on GitHub account {@code account} is bound to: {@code
     * TRAINYARD_GITHUB_DEFAULT_ORG}, for the accounts {@code TRAINYARD_GITHUB_DEFAULT_ORG_ACCOUNTS}
     * lists ({@code *}: any); null (it waits for an admin) for every other account. A public App
     * can be installed by anyone: binding every installation would hand strangers the queues.
     */
    public String defaultOrgFor(String account) {
      boolean listed =
          defaultOrgAccounts.stream().anyMatch(a -> a.equals("*") || a.equalsIgnoreCase(account));
      return listed ? defaultOrg : null;
    }
  }

  /** {@code org} defaults to {@code default}. */
  public record Bootstrap(String org, String token) {
    public Bootstrap {
      org = org == null || org.isBlank() ? "default" : org;
    }
  }

  /**
   * The dashboard's own limits (API.md §8): {@code TRAINYARD_DASHBOARD_SIGN_IN_PER_MINUTE} sign-in
   * attempts a minute per client address and per token prefix, on each replica (bursts to twice
   * that; default 10); {@code TRAINYARD_DASHBOARD_CLIENT_ADDRESS_FROM_FORWARDED}: the client's
   * address is the last one of {@code X-Forwarded-For} (behind an ingress or proxy that appends it;
   * default false, the connection's address); live-update streams open at once per session ({@code
   * TRAINYARD_DASHBOARD_STREAMS_PER_SESSION}, default 6) and per organization ({@code
   * TRAINYARD_DASHBOARD_STREAMS_PER_ORG}, default 500), on each replica.
   */
  public record Dashboard(
      Integer signInPerMinute,
      Boolean clientAddressFromForwarded,
      Integer streamsPerSession,
      Integer streamsPerOrg) {
    public Dashboard {
      signInPerMinute = signInPerMinute == null ? 10 : signInPerMinute;
      clientAddressFromForwarded = clientAddressFromForwarded != null && clientAddressFromForwarded;
      streamsPerSession = streamsPerSession == null ? 6 : streamsPerSession;
      streamsPerOrg = streamsPerOrg == null ? 500 : streamsPerOrg;
      if (signInPerMinute < 1 || streamsPerSession < 1 || streamsPerOrg < 1) {
        throw new IllegalArgumentException(
            "TRAINYARD_DASHBOARD_SIGN_IN_PER_MINUTE, _STREAMS_PER_SESSION and _STREAMS_PER_ORG must"
                + " be 1 or more");
      }
    }
  }

  /** {@code TRAINYARD_AUDIT_RETENTION}: how long an audit event is kept (default 90 days). */
  public record Audit(Duration retention) {
    public Audit {
      retention = retention == null ? Duration.ofDays(90) : retention;
      if (retention.isNegative() || retention.isZero()) {
        throw new IllegalArgumentException("TRAINYARD_AUDIT_RETENTION must be positive");
      }
    }
  }
}

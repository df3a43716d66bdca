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
 * @param sso the identity providers people sign in to the dashboard with
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
    Audit audit,
    Sso sso) {

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
    github =
        github == null
            ? new Github(null, null, null, null, null, null, null, null, null, null)
            : github;
    dashboard =
        dashboard == null ? new Dashboard(null, null, null, null, null, null, null) : dashboard;
    audit = audit == null ? new Audit(null) : audit;
    sso = sso == null ? new Sso(null, null, null) : sso;
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
   * let the gateway ask GitHub who may command the queue from a comment; {@code
   * TRAINYARD_GITHUB_WEBHOOK_PREVIOUS_SECRET}, the secret before a rotation, still signs deliveries
   * until {@code TRAINYARD_GITHUB_WEBHOOK_PREVIOUS_SECRET_UNTIL} (an instant; unset: while it is
   * set), so deliveries GitHub signed before the App's secret changed are not refused.
   */
  public record Github(
      String webhookSecret,
      String webhookPreviousSecret,
      java.time.Instant webhookPreviousSecretUntil,
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
      webhookPreviousSecret =
          webhookPreviousSecret == null || webhookPreviousSecret.isEmpty()
              ? null
              : webhookPreviousSecret;
      host = host == null || host.isBlank() ? "github.com" : host;
      defaultOrg = defaultOrg == null || defaultOrg.isBlank() ? null : defaultOrg;
      defaultOrgAccounts =
          defaultOrgAccounts == null
              ? java.util.List.of()
              : defaultOrgAccounts.stream().map(String::strip).filter(a -> !a.isEmpty()).toList();
    }

    /** The secret before a rotation while it still signs deliveries at {@code now}, or null. */
    public String previousSecretAt(java.time.Instant now) {
      return webhookPreviousSecretUntil == null || now.isBefore(webhookPreviousSecretUntil)
          ? webhookPreviousSecret
          : null;
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
   * TRAINYARD_DASHBOARD_STREAMS_PER_ORG}, default 500), on each replica; a session ends {@code
   * TRAINYARD_DASHBOARD_SESSION_LIFETIME} after sign-in (default 12 h) or after {@code
   * TRAINYARD_DASHBOARD_SESSION_IDLE_TIMEOUT} without a request (default 2 h); {@code
   * TRAINYARD_DASHBOARD_TOKEN_SIGN_IN=false} takes the API-token form away (people then sign in
   * through an identity provider only).
   */
  public record Dashboard(
      Integer signInPerMinute,
      Boolean clientAddressFromForwarded,
      Integer streamsPerSession,
      Integer streamsPerOrg,
      Duration sessionLifetime,
      Duration sessionIdleTimeout,
      Boolean tokenSignIn) {
    public Dashboard {
      signInPerMinute = signInPerMinute == null ? 10 : signInPerMinute;
      clientAddressFromForwarded = clientAddressFromForwarded != null && clientAddressFromForwarded;
      streamsPerSession = streamsPerSession == null ? 6 : streamsPerSession;
      streamsPerOrg = streamsPerOrg == null ? 500 : streamsPerOrg;
      sessionLifetime = sessionLifetime == null ? Duration.ofHours(12) : sessionLifetime;
      sessionIdleTimeout = sessionIdleTimeout == null ? Duration.ofHours(2) : sessionIdleTimeout;
      tokenSignIn = tokenSignIn == null || tokenSignIn;
      if (signInPerMinute < 1 || streamsPerSession < 1 || streamsPerOrg < 1) {
        throw new IllegalArgumentException(
            "TRAINYARD_DASHBOARD_SIGN_IN_PER_MINUTE, _STREAMS_PER_SESSION and _STREAMS_PER_ORG must"
                + " be 1 or more");
      }
      if (sessionLifetime.compareTo(Duration.ofMinutes(1)) < 0
          || sessionIdleTimeout.compareTo(Duration.ofMinutes(1)) < 0) {
        throw new IllegalArgumentException(
            "TRAINYARD_DASHBOARD_SESSION_LIFETIME and _SESSION_IDLE_TIMEOUT must be a minute or"
                + " more");
      }
    }
  }

  /**
   * Single sign-on (API.md §8, ADR 0036): an OpenID Connect provider, GitHub, or both; a provider
   * is offered once its client id is set. {@code TRAINYARD_SSO_REDIRECT_BASE_URL} is the
   * dashboard's address as browsers reach it ({@code https://merge.example.com}), which the
   * provider sends people back to; unset, the address the request came to.
   */
  public record Sso(Oidc oidc, GithubSignIn github, String redirectBaseUrl) {
    public Sso {
      oidc = oidc == null ? new Oidc(null, null, null, null, null, null, null) : oidc;
      github = github == null ? new GithubSignIn(null, null, null, null, null) : github;
      redirectBaseUrl =
          redirectBaseUrl == null || redirectBaseUrl.isBlank()
              ? null
              : withoutDefaultPort(redirectBaseUrl.strip().replaceAll("/+$", ""));
    }
  }

  /**
   * An OpenID Connect provider (Okta, Entra ID, Google, Keycloak, Dex…): {@code
   * TRAINYARD_SSO_OIDC_ISSUER} (its discovery document is read on first use), {@code
   * TRAINYARD_SSO_OIDC_CLIENT_ID}, {@code TRAINYARD_SSO_OIDC_CLIENT_SECRET} (from a Secret), {@code
   * TRAINYARD_SSO_OIDC_SCOPES} (default {@code openid,profile,email}), {@code
   * TRAINYARD_SSO_OIDC_GROUPS_CLAIM} (the ID token's claim listing the person's groups, default
   * {@code groups}), {@code TRAINYARD_SSO_OIDC_DISPLAY_NAME} (the sign-in button's, default "single
   * sign-on") and {@code TRAINYARD_SSO_OIDC_ROLES}: {@code group=org:role} rules.
   */
  public record Oidc(
      String issuer,
      String clientId,
      String clientSecret,
      List<String> scopes,
      String groupsClaim,
      String displayName,
      List<String> roles) {
    public Oidc {
      issuer = blankToNull(issuer);
      clientId = blankToNull(clientId);
      scopes = scopes == null || scopes.isEmpty() ? List.of("openid", "profile", "email") : scopes;
      groupsClaim = groupsClaim == null || groupsClaim.isBlank() ? "groups" : groupsClaim;
      displayName =
          displayName == null || displayName.isBlank() ? "single sign-on" : displayName.strip();
      roles = roles == null ? List.of() : List.copyOf(roles);
      if (clientId != null && issuer == null) {
        throw new IllegalArgumentException(
            "TRAINYARD_SSO_OIDC_CLIENT_ID is set without TRAINYARD_SSO_OIDC_ISSUER");
      }
      if (clientId != null && !scopes.contains("openid")) {
        throw new IllegalArgumentException("TRAINYARD_SSO_OIDC_SCOPES must include openid");
      }
    }

    public boolean enabled() {
      return clientId != null;
    }
  }

  /**
   * Sign-in with GitHub (an OAuth App, or the GitHub App's user authorization): {@code
   * TRAINYARD_SSO_GITHUB_CLIENT_ID}, {@code TRAINYARD_SSO_GITHUB_CLIENT_SECRET}, {@code
   * TRAINYARD_SSO_GITHUB_WEB_URL} (default {@code https://github.com}; GitHub Enterprise Server:
   * its address), {@code TRAINYARD_SSO_GITHUB_API_URL} (default {@code TRAINYARD_GITHUB_API_URL})
   * and {@code TRAINYARD_SSO_GITHUB_ROLES}: {@code github-org/team-slug=org:role} or {@code
   * github-org=org:role} rules.
   */
  public record GithubSignIn(
      String clientId, String clientSecret, String webUrl, String apiUrl, List<String> roles) {
    public GithubSignIn {
      clientId = blankToNull(clientId);
      webUrl =
          webUrl == null || webUrl.isBlank() ? "https://github.com" : webUrl.replaceAll("/+$", "");
      apiUrl = blankToNull(apiUrl);
      roles = roles == null ? List.of() : List.copyOf(roles);
    }

    public boolean enabled() {
      return clientId != null;
    }
  }

  /**
   * {@code https://host:443} as browsers and providers write it, {@code https://host}: a provider
   * comparing redirect URIs exactly would refuse the one with the port.
   */
  static String withoutDefaultPort(String url) {
    return url.replaceFirst("^(https://[^/:]+):443(?=/|$)", "$1")
        .replaceFirst("^(http://[^/:]+):80(?=/|$)", "$1");
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value.strip();
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

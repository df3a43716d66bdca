package dev.trainyard.gateway.auth;

/** Who may call a route: every route declares one ({@link SecuredRoutes}), there is no default. */
public enum Access {
  /** No token: the route authenticates its caller itself (a signed webhook). */
  PUBLIC,
  /** An organization's API token; the request is rate-limited per organization. */
  ORGANIZATION,
  /** The admin token. */
  ADMIN,
  /**
   * A dashboard session cookie (API.md §8); without one a page redirects to the sign-in page, and a
   * POST must carry the session's CSRF token. Rate-limited per organization like the API.
   */
  SESSION
}

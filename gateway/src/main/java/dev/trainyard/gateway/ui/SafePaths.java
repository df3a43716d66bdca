package dev.trainyard.gateway.ui;

import dev.trainyard.gateway.auth.CanonicalPaths;
import java.net.URI;

/**
 * Where the dashboard may send a browser after sign-in or a form: a path of the dashboard on this
 * site, never another host (no open redirect): {@code //evil.example}, {@code /\evil}, a scheme, a
 * path outside {@code /ui/} or one no route could have are all replaced by the fallback.
 */
public final class SafePaths {
  private SafePaths() {}

  public static String sameSite(String candidate, String fallback) {
    if (candidate == null || candidate.isEmpty() || candidate.length() > 2_000) {
      return fallback;
    }
    URI uri;
    try {
      uri = new URI(candidate);
    } catch (java.net.URISyntaxException e) {
      return fallback;
    }
    String path = uri.getRawPath();
    boolean local =
        uri.getScheme() == null
            && uri.getRawAuthority() == null
            && uri.getRawFragment() == null
            && path != null
            && path.startsWith("/ui/")
            && CanonicalPaths.isCanonical(path);
    return local ? candidate : fallback;
  }
}

package dev.trainyard.common.webhook;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Optional;

/**
 * Refuses webhook URLs that would make trainyard call into its own network (server-side request
 * forgery): only {@code https} (and {@code http} when allowed), and every address the host resolves
 * to must be public — not loopback (unless allowed), private, link-local (which holds the cloud
 * metadata address 169.254.169.254), unique-local, carrier-grade NAT, wildcard or multicast.
 * Checked when an endpoint is created and again before every delivery, since DNS may change.
 */
public final class UrlGuard {
  /** What a deployment permits beyond public https targets. */
  public record Policy(boolean allowHttp, boolean allowLoopback) {}

  /** Resolves a host name; tests substitute their own. */
  public interface Resolver {
    InetAddress[] resolve(String host) throws UnknownHostException;

    Resolver DNS = InetAddress::getAllByName;
  }

  private final Policy policy;
  private final Resolver resolver;

  public UrlGuard(Policy policy, Resolver resolver) {
    this.policy = policy;
    this.resolver = resolver;
  }

  /** Why {@code url} may not be called, or empty when it may. Does DNS: not on an event loop. */
  public Optional<String> problem(String url) {
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException e) {
      return Optional.of("url must be an absolute http(s) URL");
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("https") && !(scheme.equals("http") && policy.allowHttp())) {
      return Optional.of(policy.allowHttp() ? "url must use http or https" : "url must use https");
    }
    if (uri.getHost() == null || uri.getUserInfo() != null) {
      return Optional.of("url must name a host and carry no credentials");
    }
    String host = uri.getHost();
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1); // an IPv6 literal
    }
    InetAddress[] addresses;
    try {
      addresses = resolver.resolve(host);
    } catch (UnknownHostException e) {
      return Optional.of("url host " + uri.getHost() + " does not resolve");
    }
    for (InetAddress address : addresses) {
      Optional<String> kind = forbidden(address);
      if (kind.isPresent()) {
        return Optional.of(
            "url host "
                + uri.getHost()
                + " resolves to a "
                + kind.get()
                + " address ("
                + address.getHostAddress()
                + "), which webhooks may not target");
      }
    }
    return Optional.empty();
  }

  private Optional<String> forbidden(InetAddress a) {
    if (a.isLoopbackAddress()) {
      return policy.allowLoopback() ? Optional.empty() : Optional.of("loopback");
    }
    if (a.isAnyLocalAddress()) {
      return Optional.of("wildcard");
    }
    if (a.isLinkLocalAddress()) {
      return Optional.of("link-local or metadata");
    }
    if (a.isSiteLocalAddress()) {
      return Optional.of("private");
    }
    if (a.isMulticastAddress()) {
      return Optional.of("multicast");
    }
    byte[] b = a.getAddress();
    if (a instanceof Inet6Address && (b[0] & 0xfe) == 0xfc) {
      return Optional.of("unique-local (private)");
    }
    if (b.length == 4 && (b[0] & 0xff) == 100 && (b[1] & 0xc0) == 64) {
      return Optional.of("carrier-grade NAT (private)");
    }
    if (b.length == 4 && (b[0] & 0xff) == 0) {
      return Optional.of("wildcard");
    }
    return Optional.empty();
  }
}

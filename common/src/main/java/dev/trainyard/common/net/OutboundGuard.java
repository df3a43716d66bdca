package dev.trainyard.common.net;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Refuses URLs that would make trainyard call into its own network (server-side request forgery):
 * only the schemes the caller's purpose allows, no credentials, and the host and every address it
 * resolves to must be public unicast (see {@link AddressRanges}); loopback only when the policy
 * allows it, and hosts the operator listed ({@code TRAINYARD_OUTBOUND_ALLOWED_HOSTS}) are not
 * checked at all. Checked when a URL is given ({@link #problem}) and again for every connection:
 * {@link #target} needs no lookup, and {@link #addresses} resolves once and returns the checked
 * addresses the connection must go to, so a second DNS answer is never trusted.
 */
public final class OutboundGuard {
  private static final Map<String, Integer> DEFAULT_PORTS =
      Map.of("http", 80, "https", 443, "ssh", 22);

  /**
   * What a caller may reach.
   *
   * @param purpose what the URLs are for, as messages name it ("webhooks")
   * @param schemes the schemes allowed, in the order messages list them
   * @param allowLoopback whether loopback addresses may be targeted (one machine, trying it out)
   * @param allowedHosts host names exempt from the address checks (exact, case-insensitive)
   */
  public record Policy(
      String purpose, List<String> schemes, boolean allowLoopback, Set<String> allowedHosts) {
    public Policy {
      schemes = List.copyOf(schemes);
      if (!DEFAULT_PORTS.keySet().containsAll(schemes)) {
        throw new IllegalArgumentException("the guard knows http, https and ssh; got " + schemes);
      }
      allowedHosts =
          allowedHosts.stream()
              .map(h -> withoutTrailingDot(h.trim().toLowerCase(Locale.ROOT)))
              .filter(h -> !h.isEmpty())
              .collect(Collectors.toUnmodifiableSet());
    }

    /** Webhook endpoints: {@code https}, and {@code http} when the deployment allows it. */
    public static Policy webhooks(
        boolean allowHttp, boolean allowLoopback, Collection<String> allowedHosts) {
      return new Policy(
          "webhooks",
          allowHttp ? List.of("http", "https") : List.of("https"),
          allowLoopback,
          allowedHosts == null ? Set.of() : Set.copyOf(allowedHosts));
    }

    /** Git remotes ({@code setRemote}): {@code https}, {@code http} and {@code ssh}. */
    public static Policy gitRemotes(boolean allowLoopback, Collection<String> allowedHosts) {
      return new Policy(
          "git remotes",
          List.of("https", "http", "ssh"),
          allowLoopback,
          allowedHosts == null ? Set.of() : Set.copyOf(allowedHosts));
    }

    boolean exempts(UrlHost host) {
      return allowedHosts.contains(withoutTrailingDot(host.name()));
    }

    private static String withoutTrailingDot(String host) {
      return host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
    }
  }

  /** Resolves a host name to all its addresses; tests substitute their own. */
  public interface Resolver {
    InetAddress[] resolve(String host) throws UnknownHostException;

    Resolver DNS = InetAddress::getAllByName;

    /**
     * Answers from {@code answers} (a name → its addresses, written out), read at every lookup so a
     * test may change them; a name it lacks does not resolve. Nothing is looked up.
     */
    static Resolver table(Map<String, List<String>> answers) {
      return host -> {
        List<String> answer = answers.get(host);
        if (answer == null) {
          throw new UnknownHostException(host);
        }
        InetAddress[] addresses = new InetAddress[answer.size()];
        for (int i = 0; i < addresses.length; i++) {
          addresses[i] = UrlHost.parse(literal(answer.get(i))).address().orElseThrow();
        }
        return addresses;
      };
    }

    private static String literal(String address) {
      return address.contains(":") ? "[" + address + "]" : address;
    }
  }

  /**
   * A URL that passed every check that needs no lookup.
   *
   * @param uri the URL, for a client that connects by it: its host is {@code host}
   * @param host the host, lower case, without brackets
   * @param port the port, the scheme's default when the URL names none
   * @param address the checked address when the host is one written out; empty for a name, which
   *     must go through {@link #addresses}
   */
  public record Target(URI uri, String host, int port, Optional<InetAddress> address) {}

  private final Policy policy;
  private final Resolver resolver;

  public OutboundGuard(Policy policy, Resolver resolver) {
    this.policy = policy;
    this.resolver = resolver;
  }

  /** A guard that resolves names with the system's DNS. */
  public static OutboundGuard resolving(Policy policy) {
    return new OutboundGuard(policy, Resolver.DNS);
  }

  /**
   * Why {@code url} may not be called, or empty when it may: every check, the lookup included. Does
   * DNS: not on an event loop.
   */
  public Optional<String> problem(String url) {
    Target target;
    try {
      target = target(url);
    } catch (OutboundRefusedException e) {
      return Optional.of(e.getMessage());
    }
    try {
      addresses(target.host());
      return Optional.empty();
    } catch (OutboundRefusedException e) {
      return Optional.of(e.getMessage());
    } catch (UnknownHostException e) {
      return Optional.of("url host " + target.host() + " does not resolve");
    }
  }

  /**
   * Checks {@code url} as far as that needs no lookup: scheme, credentials, the spelling of the
   * host and, when the host is an address, the address.
   *
   * @throws OutboundRefusedException with the sentence that says why, naming {@code url}
   */
  public Target target(String url) {
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException e) {
      throw new OutboundRefusedException("url must be an absolute URL: " + e.getReason());
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!policy.schemes().contains(scheme)) {
      throw new OutboundRefusedException("url must use " + String.join(" or ", policy.schemes()));
    }
    String authority = uri.getRawAuthority();
    if (uri.isOpaque() || authority == null) {
      throw new OutboundRefusedException("url must name a host");
    }
    if (authority.contains("@")) {
      throw new OutboundRefusedException("url must name a host and carry no credentials");
    }
    UrlHost host = UrlHost.parse(hostOf(authority));
    if (uri.getHost() == null) {
      // java.net.URI read no server in it, so no client that takes a URI would reach this host
      throw new OutboundRefusedException(
          "url host " + hostOf(authority) + " must be a DNS name or an IP address");
    }
    int port = uri.getPort() == -1 ? DEFAULT_PORTS.get(scheme) : uri.getPort();
    if (port < 1 || port > 65535) {
      throw new OutboundRefusedException("url port must be between 1 and 65535");
    }
    host.address().ifPresent(address -> check(host, address, "is"));
    return new Target(uri, host.name(), port, host.address());
  }

  /**
   * Resolves {@code host} once and checks every address it resolves to (an address written out is
   * checked as it is): the addresses a connection may go to, and no others.
   *
   * @throws OutboundRefusedException when the host is not spelt as {@link #target} allows, or one
   *     of its addresses may not be targeted
   * @throws UnknownHostException when it resolves to nothing
   */
  public List<InetAddress> addresses(String host) throws UnknownHostException {
    UrlHost parsed = UrlHost.parse(host.contains(":") ? "[" + host + "]" : host);
    if (parsed.address().isPresent()) {
      check(parsed, parsed.address().get(), "is");
      return List.of(parsed.address().get());
    }
    List<InetAddress> all = List.of(resolver.resolve(parsed.name()));
    if (all.isEmpty()) {
      throw new UnknownHostException(host);
    }
    all.forEach(address -> check(parsed, address, "resolves to"));
    return all;
  }

  private void check(UrlHost host, InetAddress address, String verb) {
    if (policy.exempts(host)) {
      return;
    }
    Optional<String> kind = AddressRanges.special(address);
    if (kind.isEmpty() || (kind.get().equals(AddressRanges.LOOPBACK) && policy.allowLoopback())) {
      return;
    }
    throw new OutboundRefusedException(
        "url host "
            + host.name()
            + " "
            + verb
            + " "
            + article(kind.get())
            + " "
            + kind.get()
            + " address ("
            + address.getHostAddress()
            + "), which "
            + policy.purpose()
            + " may not target");
  }

  /** The host part of an authority without credentials: {@code [v6]:port} or {@code name:port}. */
  private static String hostOf(String authority) {
    int end = authority.startsWith("[") ? authority.indexOf(']') + 1 : authority.lastIndexOf(':');
    return end <= 0 ? authority : authority.substring(0, end);
  }

  private static String article(String word) {
    return "aeiouAEIOU".indexOf(word.charAt(0)) >= 0 ? "an" : "a";
  }
}

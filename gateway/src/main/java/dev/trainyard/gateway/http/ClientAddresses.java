package dev.trainyard.gateway.http;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import org.springframework.web.reactive.function.server.ServerRequest;

/**
 * Who sent a request, by address, and the key an address is counted under: an IPv4 address as it
 * is, an IPv6 address as its /64 (one subscriber usually holds a whole /64, so counting single
 * addresses would let it try 2^64 times), anything that is no address literal as {@code "unknown"}
 * — never looked up.
 */
public final class ClientAddresses {
  /**
   * A dotted IPv4 address, or text with a colon (Java parses that as IPv6 and never resolves it).
   */
  private static final Pattern LITERAL =
      Pattern.compile("([0-9]{1,3}\\.){3}[0-9]{1,3}|[0-9A-Fa-f.]*:[0-9A-Fa-f:.]{1,44}");

  private ClientAddresses() {}

  /**
   * The client's address: the connection's, or — behind an ingress or proxy that appends the
   * address it was reached from to {@code X-Forwarded-For} ({@code fromForwarded}) — the last
   * address of that header, the one a client cannot write itself.
   */
  public static String of(ServerRequest request, boolean fromForwarded) {
    if (fromForwarded) {
      // the last line's last entry: a proxy that adds a line rather than appending to the
      // client's leaves the client's own line first
      List<String> lines = request.headers().header("X-Forwarded-For");
      String forwarded = lines.isEmpty() ? null : lines.get(lines.size() - 1);
      if (forwarded != null && !forwarded.isBlank()) {
        String last = forwarded.substring(forwarded.lastIndexOf(',') + 1).strip();
        return LITERAL.matcher(last).matches() ? last : "unknown";
      }
    }
    return request
        .remoteAddress()
        .map(InetSocketAddress::getAddress)
        .map(a -> a == null ? "unknown" : a.getHostAddress())
        .orElse("unknown");
  }

  /** {@code text} (an address {@link #of} gave) as a throttle key. */
  public static String key(String text) {
    if (text == null || !LITERAL.matcher(text).matches()) {
      return "unknown";
    }
    try {
      // a literal of digits, dots and colons only: parsed, never resolved
      return key(InetAddress.getByName(text));
    } catch (UnknownHostException e) {
      return "unknown";
    }
  }

  private static String key(InetAddress address) {
    if (address == null) {
      return "unknown";
    }
    if (address instanceof Inet6Address) {
      byte[] network = Arrays.copyOf(address.getAddress(), 16);
      Arrays.fill(network, 8, 16, (byte) 0);
      try {
        return InetAddress.getByAddress(network).getHostAddress() + "/64";
      } catch (UnknownHostException e) {
        return "unknown";
      }
    }
    return address.getHostAddress();
  }
}

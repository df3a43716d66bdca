package dev.trainyard.gateway.ui;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.regex.Pattern;

/**
 * The key a client's address is counted under: an IPv4 address as it is, an IPv6 address as its /64
 * (one subscriber usually holds a whole /64, so counting single addresses would let it try 2^64
 * times), anything that is no address literal as {@code "unknown"} — never looked up.
 */
final class ClientAddresses {
  /**
   * A dotted IPv4 address, or text with a colon (Java parses that as IPv6 and never resolves it).
   */
  private static final Pattern LITERAL =
      Pattern.compile("([0-9]{1,3}\\.){3}[0-9]{1,3}|[0-9A-Fa-f.]*:[0-9A-Fa-f:.]{1,44}");

  private ClientAddresses() {}

  static String key(String text) {
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

  static String key(InetAddress address) {
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

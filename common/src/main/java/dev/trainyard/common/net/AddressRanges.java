package dev.trainyard.common.net;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Which addresses are not public unicast, as rows of the IANA IPv4 and IPv6 special-purpose
 * registries (first match wins, so a narrower row names its part of a wider one). Whole ranges are
 * refused where the registry marks only some of their addresses global (192.0.0/24, 2001::/23): no
 * webhook receiver or git server lives there. Everything outside global unicast 2000::/3 is refused
 * too, except the two IPv6 forms that carry an IPv4 address to a real host — IPv4-mapped
 * ::ffff:0:0/96 and NAT64 64:ff9b::/96 — which are judged by the IPv4 address they carry.
 */
final class AddressRanges {
  static final String LOOPBACK = "loopback";
  static final String PRIVATE = "private";

  private static final List<Range> IPV4 =
      List.of(
          Range.of("0.0.0.0/32", "unspecified"),
          Range.of("0.0.0.0/8", "reserved (0/8)"),
          Range.of("10.0.0.0/8", PRIVATE),
          Range.of("100.64.0.0/10", "shared (carrier-grade NAT)"),
          Range.of("127.0.0.0/8", LOOPBACK),
          Range.of("169.254.0.0/16", "link-local or metadata"),
          Range.of("172.16.0.0/12", PRIVATE),
          Range.of("192.0.0.0/24", "IETF protocol assignment"),
          Range.of("192.0.2.0/24", "documentation"),
          Range.of("192.88.99.0/24", "6to4 relay anycast"),
          Range.of("192.168.0.0/16", PRIVATE),
          Range.of("198.18.0.0/15", "benchmarking"),
          Range.of("198.51.100.0/24", "documentation"),
          Range.of("203.0.113.0/24", "documentation"),
          Range.of("224.0.0.0/4", "multicast"),
          Range.of("255.255.255.255/32", "broadcast"),
          Range.of("240.0.0.0/4", "reserved (240/4)"));

  private static final Range IPV4_MAPPED = new Range(mappedPrefix(), 96, "IPv4-mapped");
  private static final Range NAT64 = Range.of("64:ff9b::/96", "NAT64");

  private static final List<Range> IPV6 =
      List.of(
          Range.of("::/128", "unspecified"),
          Range.of("::1/128", LOOPBACK),
          // deprecated (RFC 4291): some stacks still route ::a.b.c.d to a.b.c.d
          Range.of("::/96", "IPv4-compatible"),
          Range.of("64:ff9b:1::/48", "local-use NAT64"),
          Range.of("100::/64", "discard-only"),
          Range.of("2001::/32", "Teredo"),
          Range.of("2001:2::/48", "benchmarking"),
          Range.of("2001:10::/28", "ORCHID"),
          Range.of("2001:20::/28", "ORCHIDv2"),
          Range.of("2001::/23", "IETF protocol assignment"),
          Range.of("2001:db8::/32", "documentation"),
          Range.of("3fff::/20", "documentation"),
          // deprecated (RFC 7526); whichever relay answers decides where the packets go
          Range.of("2002::/16", "6to4"),
          Range.of("5f00::/16", "segment-routing"),
          Range.of("fc00::/7", "private (unique-local)"),
          Range.of("fe80::/10", "link-local"),
          Range.of("fec0::/10", "site-local"),
          Range.of("ff00::/8", "multicast"));

  private static final Range GLOBAL_UNICAST = Range.of("2000::/3", "global unicast");

  private AddressRanges() {}

  /**
   * What kind of non-public address {@code address} is ({@value #LOOPBACK}, {@value #PRIVATE},
   * "documentation", …), or empty when it is public unicast.
   */
  static Optional<String> special(InetAddress address) {
    byte[] bytes = address.getAddress();
    if (bytes.length == 4) {
      return first(IPV4, bytes);
    }
    if (IPV4_MAPPED.contains(bytes)) {
      return special(embeddedIpv4(bytes)); // the stack connects to the IPv4 address itself
    }
    if (NAT64.contains(bytes)) {
      // the translator would reach the embedded address from its own network
      return special(embeddedIpv4(bytes)).map(kind -> kind + " (through NAT64)");
    }
    Optional<String> kind = first(IPV6, bytes);
    if (kind.isPresent() || GLOBAL_UNICAST.contains(bytes)) {
      return kind;
    }
    return Optional.of("reserved (outside 2000::/3)");
  }

  private static Optional<String> first(List<Range> table, byte[] bytes) {
    return table.stream().filter(r -> r.contains(bytes)).map(Range::kind).findFirst();
  }

  private static InetAddress embeddedIpv4(byte[] ipv6) {
    try {
      return InetAddress.getByAddress(Arrays.copyOfRange(ipv6, 12, 16));
    } catch (UnknownHostException e) {
      throw new IllegalStateException("four bytes are an IPv4 address", e);
    }
  }

  private static byte[] mappedPrefix() {
    byte[] prefix = new byte[16];
    prefix[10] = (byte) 0xff;
    prefix[11] = (byte) 0xff;
    return prefix; // spelt out: InetAddress turns ::ffff:0:0 into the IPv4 address 0.0.0.0
  }

  /** One registry row: the first {@code bits} bits of {@code prefix}. */
  private record Range(byte[] prefix, int bits, String kind) {
    static Range of(String cidr, String kind) {
      int slash = cidr.indexOf('/');
      try {
        // literals only: InetAddress parses them without a lookup
        byte[] prefix = InetAddress.getByName(cidr.substring(0, slash)).getAddress();
        return new Range(prefix, Integer.parseInt(cidr.substring(slash + 1)), kind);
      } catch (UnknownHostException e) {
        throw new IllegalArgumentException("not an address range: " + cidr, e);
      }
    }

    boolean contains(byte[] address) {
      if (address.length != prefix.length) {
        return false;
      }
      int whole = bits / 8;
      for (int i = 0; i < whole; i++) {
        if (address[i] != prefix[i]) {
          return false;
        }
      }
      int rest = bits % 8;
      if (rest == 0) {
        return true;
      }
      int mask = (0xff << (8 - rest)) & 0xff;
      return (address[whole] & mask) == (prefix[whole] & mask);
    }
  }
}

package dev.trainyard.common.net;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A URL's host as the guard reads it, before any lookup: a DNS name, or an address written out.
 *
 * <p>Numbers are read one way only. A host whose last label is a number is an IPv4 address to
 * inet_aton, curl and browsers, which read {@code 2852039166}, {@code 0xa9fea9fe}, {@code
 * 0251.0376.0251.0376} and {@code 169.254.43518} all as 169.254.169.254 — while {@code InetAddress}
 * reads some of them otherwise or looks them up. So only four decimal numbers without leading zeros
 * are an address here; every other numeric spelling is refused, and the message says what it would
 * have meant. An IPv6 literal may not carry a zone, nor an IPv4 tail in another spelling. Names are
 * letters, digits and {@code -} (an IDN in its {@code xn--} form).
 *
 * @param name the host in lower case, without brackets: what is looked up and compared
 * @param address the address when the host is one written out
 */
record UrlHost(String name, Optional<InetAddress> address) {
  private static final String LABEL = "[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?";
  private static final Pattern DNS_NAME =
      Pattern.compile("(?=.{1,253}$)" + LABEL + "(\\." + LABEL + ")*\\.?");
  private static final String OCTET = "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])";
  private static final Pattern CANONICAL_IPV4 = Pattern.compile("(" + OCTET + "\\.){3}" + OCTET);
  private static final Pattern IPV6_TEXT = Pattern.compile("[0-9a-f:.]+");
  private static final Pattern NUMBER = Pattern.compile("[0-9]+|0x[0-9a-f]*");

  /** Reads {@code host} as written in a URL (an IPv6 literal in brackets). */
  static UrlHost parse(String host) {
    String text = host.toLowerCase(Locale.ROOT);
    if (text.startsWith("[") && text.endsWith("]")) {
      return ipv6(host, text.substring(1, text.length() - 1));
    }
    if (endsInNumber(text)) {
      return ipv4(host, text);
    }
    if (!DNS_NAME.matcher(text).matches()) {
      throw new OutboundRefusedException(
          "url host "
              + host
              + " must be a DNS name of letters, digits, '-' and '.' (an IDN in its xn-- form) or"
              + " an IP address");
    }
    return new UrlHost(text, Optional.empty());
  }

  private static UrlHost ipv6(String host, String inner) {
    if (inner.contains("%")) {
      throw new OutboundRefusedException("url host " + host + " may not name an IPv6 zone");
    }
    int lastColon = inner.lastIndexOf(':');
    boolean valid =
        IPV6_TEXT.matcher(inner).matches()
            && (!inner.contains(".")
                || CANONICAL_IPV4.matcher(inner.substring(lastColon + 1)).matches());
    try {
      if (valid) {
        // in brackets InetAddress parses the literal and never looks it up
        return new UrlHost(inner, Optional.of(InetAddress.getByName("[" + inner + "]")));
      }
    } catch (UnknownHostException e) {
      // not an IPv6 address: refused below
    }
    throw new OutboundRefusedException("url host " + host + " is not an IPv6 address");
  }

  private static UrlHost ipv4(String host, String text) {
    byte[] bytes = Inet4Spelling.read(text);
    if (bytes == null) {
      throw new OutboundRefusedException(
          "url host " + host + " ends in a number but is not an IPv4 address");
    }
    InetAddress address;
    try {
      address = InetAddress.getByAddress(bytes);
    } catch (UnknownHostException e) {
      throw new IllegalStateException("four bytes are an IPv4 address", e);
    }
    if (!CANONICAL_IPV4.matcher(text).matches()) {
      throw new OutboundRefusedException(
          "url host "
              + host
              + " is the IPv4 address "
              + address.getHostAddress()
              + " in another spelling; write it as four decimal numbers");
    }
    return new UrlHost(text, Optional.of(address));
  }

  /** The WHATWG URL rule: the last label (before one trailing dot) is a decimal or 0x number. */
  private static boolean endsInNumber(String text) {
    String trimmed = text.endsWith(".") ? text.substring(0, text.length() - 1) : text;
    String last = trimmed.substring(trimmed.lastIndexOf('.') + 1);
    return NUMBER.matcher(last).matches();
  }

  /** What inet_aton makes of an IPv4 address in any of its spellings. */
  private static final class Inet4Spelling {
    private Inet4Spelling() {}

    /** The four bytes {@code text} means, or null when it is no address at all. */
    static byte[] read(String text) {
      String[] parts = text.split("\\.", -1);
      int count = parts.length;
      if (count > 1 && parts[count - 1].isEmpty()) {
        count--; // one trailing dot
      }
      if (count > 4) {
        return null;
      }
      long value = 0;
      for (int i = 0; i < count; i++) {
        long part = number(parts[i]);
        boolean last = i == count - 1;
        // a.b.c.d, a.b.c (c fills 16 bits), a.b (b fills 24 bits), a (all 32)
        long limit = last ? 1L << (8 * (5 - count)) : 256;
        if (part < 0 || part >= limit) {
          return null;
        }
        value = last ? value + part : value + (part << (8 * (3 - i)));
      }
      return new byte[] {
        (byte) (value >> 24), (byte) (value >> 16), (byte) (value >> 8), (byte) value
      };
    }

    /** One part: 0x hex, 0 octal, else decimal; -1 when it is none of them. */
    private static long number(String part) {
      int radix = 10;
      String digits = part;
      if (part.startsWith("0x")) {
        radix = 16;
        digits = part.substring(2);
      } else if (part.length() > 1 && part.startsWith("0")) {
        radix = 8;
        digits = part.substring(1);
      }
      if (part.isEmpty() || digits.length() > 11) {
        return -1; // empty, or beyond 32 bits in any radix
      }
      if (digits.isEmpty()) {
        return 0; // "0x"
      }
      try {
        return Long.parseLong(digits, radix);
      } catch (NumberFormatException e) {
        return -1;
      }
    }
  }
}

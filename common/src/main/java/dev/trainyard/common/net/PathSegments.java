package dev.trainyard.common.net;

import java.nio.charset.StandardCharsets;

/**
 * Names (hosts, owners, repositories, branches) written into the paths of the dashboard's pages and
 * the links that lead there ({@code http_details_url}), in the one spelling the gateway's routes
 * take: letters, digits, {@code -}, {@code _} and {@code .} as they are, every other UTF-8 byte as
 * {@code %XX} in upper-case hex, and a branch's {@code /} kept as a separator.
 */
public final class PathSegments {
  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private PathSegments() {}

  /** {@code text} as one path segment. */
  public static String segment(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
      char c = (char) (b & 0xFF);
      if (c < 0x80 && (Character.isLetterOrDigit(c) || c == '-' || c == '_' || c == '.')) {
        out.append(c);
      } else {
        out.append('%').append(HEX[(b >> 4) & 0xF]).append(HEX[b & 0xF]);
      }
    }
    return out.toString();
  }

  /** {@code names} joined by {@code /}, each encoded; a {@code /} inside one stays a separator. */
  public static String path(String... names) {
    StringBuilder out = new StringBuilder();
    for (String name : names) {
      for (String part : name.split("/", -1)) {
        out.append(out.isEmpty() ? "" : "/").append(segment(part));
      }
    }
    return out.toString();
  }
}

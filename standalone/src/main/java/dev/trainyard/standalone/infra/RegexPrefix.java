package dev.trainyard.standalone.infra;

/**
 * The literal text every match of an anchored pattern starts with, as MongoDB bounds an index scan
 * by it: {@code ^\Qacme/\E(?i)web} starts with {@code acme/}. Conservative: a pattern whose prefix
 * is not sure (case-insensitive, multi-line or extended options, an alternation anywhere, a
 * quantifier on the last literal character) gives a shorter prefix or none — never one a match
 * could lack.
 */
final class RegexPrefix {
  private static final String META = ".[]{}()*+?^$|\\";
  private static final String QUANTIFIERS = "*+?{";

  private RegexPrefix() {}

  /** The prefix; empty when there is none to bound a scan by. */
  static String of(String pattern, String options) {
    if (options != null && (options.contains("i") || options.contains("m") || options.contains("x"))
        || !pattern.startsWith("^")
        || hasAlternation(pattern)) {
      return "";
    }
    StringBuilder prefix = new StringBuilder();
    int i = 1;
    while (i < pattern.length()) {
      if (pattern.startsWith("\\Q", i)) {
        int end = pattern.indexOf("\\E", i + 2);
        prefix.append(pattern, i + 2, end < 0 ? pattern.length() : end);
        i = end < 0 ? pattern.length() : end + 2;
      } else if (META.indexOf(pattern.charAt(i)) < 0) {
        prefix.append(pattern.charAt(i));
        i++;
      } else {
        break;
      }
    }
    if (i < pattern.length() && QUANTIFIERS.indexOf(pattern.charAt(i)) >= 0 && !prefix.isEmpty()) {
      // the quantifier may repeat the last character (a code point) zero times: it is not sure
      prefix.setLength(prefix.offsetByCodePoints(prefix.length(), -1));
    }
    return prefix.toString();
  }

  /** Whether {@code |} appears outside quoted text and escapes (in a class too: conservative). */
  private static boolean hasAlternation(String pattern) {
    int i = 0;
    while (i < pattern.length()) {
      if (pattern.startsWith("\\Q", i)) {
        int end = pattern.indexOf("\\E", i + 2);
        i = end < 0 ? pattern.length() : end + 2;
      } else if (pattern.charAt(i) == '\\') {
        i += 2;
      } else if (pattern.charAt(i) == '|') {
        return true;
      } else {
        i++;
      }
    }
    return false;
  }
}

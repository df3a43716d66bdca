package dev.trainyard.flaky.repo;

import dev.trainyard.flaky.owners.Codeowners;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Parsed CODEOWNERS, most recently used first, keyed by (organization, repository, SHA-256 of the
 * text) — never by the text itself — and bounded by the characters of the texts they were parsed
 * from ({@value #MAX_CHARS}) and by {@value #MAX_ENTRIES} entries. A changed file is a new key; the
 * old one ages out.
 */
final class ParsedCodeowners {
  static final int MAX_ENTRIES = 256;
  static final long MAX_CHARS = 32L * 1024 * 1024;

  private record Entry(Codeowners parsed, int chars) {}

  private final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);
  private final Function<String, Codeowners> parser;
  private long chars;

  ParsedCodeowners(Function<String, Codeowners> parser) {
    this.parser = parser;
  }

  synchronized Codeowners get(String repoKey, String text) {
    String key = repoKey + "#" + sha256(text);
    Entry entry = entries.get(key);
    if (entry == null) {
      entry = new Entry(parser.apply(text), text.length());
      entries.put(key, entry);
      chars += entry.chars();
      Iterator<Map.Entry<String, Entry>> oldest = entries.entrySet().iterator();
      while ((entries.size() > MAX_ENTRIES || chars > MAX_CHARS) && entries.size() > 1) {
        chars -= oldest.next().getValue().chars();
        oldest.remove();
      }
    }
    return entry.parsed();
  }

  synchronized int size() {
    return entries.size();
  }

  synchronized long chars() {
    return chars;
  }

  private static String sha256(String text) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JVM", e);
    }
  }
}

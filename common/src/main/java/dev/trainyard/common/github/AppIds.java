package dev.trainyard.common.github;

import dev.trainyard.common.github.GithubClient.Answer;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;

/**
 * The GitHub App behind a Bot account ({@code vercel[bot]} is App {@code vercel}), by {@code GET
 * /apps/{slug}}. A commit status carries the account that made it, not an App, while a required
 * check bound to an App (Vercel, Codecov, a Jenkins App) names the App's id: a status made by that
 * App's Bot counts for it. Answers are cached for {@link #FRESH}, at most {@link #MAX_CACHED}
 * slugs, so a busy repository asks GitHub about each App once a day.
 */
public final class AppIds {
  static final Duration FRESH = Duration.ofDays(1);
  static final int MAX_CACHED = 1_000;
  private static final String BOT_SUFFIX = "[bot]";

  private record Known(Long id, Instant at) {}

  private final Function<String, Answer> get;
  private final InstantSource clock;
  private final Map<String, Known> cache =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Known> eldest) {
          return size() > MAX_CACHED;
        }
      };

  /**
   * @param get a GET of a path as the App (the endpoint is public; the App's own limit pays)
   */
  public AppIds(Function<String, Answer> get, InstantSource clock) {
    this.get = get;
    this.clock = clock;
  }

  /**
   * The id of the App whose Bot account is {@code login} of type {@code type}; empty for a person,
   * a Bot of no App (GitHub answers 404), or while GitHub cannot say.
   */
  public Optional<Long> ofBot(String login, String type) {
    if (login == null || !"Bot".equals(type) || !login.endsWith(BOT_SUFFIX)) {
      return Optional.empty();
    }
    String slug = login.substring(0, login.length() - BOT_SUFFIX.length());
    if (slug.isEmpty() || !slug.matches("[A-Za-z0-9][A-Za-z0-9-]{0,99}")) {
      return Optional.empty();
    }
    Instant now = clock.instant();
    Known known;
    synchronized (cache) {
      known = cache.get(slug);
    }
    if (known == null || known.at().plus(FRESH).isBefore(now)) {
      Answer answer = get.apply("/apps/" + slug);
      if (answer.status() != 200 && answer.status() != 404) {
        return Optional.ofNullable(known).map(Known::id); // not known now: keep what was
      }
      JsonNode app = answer.body();
      known =
          new Known(
              answer.status() == 200 && app.path("id").isNumber() ? app.path("id").asLong() : null,
              now);
      synchronized (cache) {
        cache.put(slug, known);
      }
    }
    return Optional.ofNullable(known.id());
  }
}

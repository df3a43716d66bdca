package dev.trainyard.cli.http;

import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;

/**
 * Where the server is and the token to show it, each taken from the first that gives it: the option
 * ({@code --url}, {@code --token}, {@code --org}), the environment ({@code TRAINYARD_URL}, {@code
 * TRAINYARD_TOKEN}, {@code TRAINYARD_ORG}), the config file ({@code url=}, {@code token=}, {@code
 * org=}). A file holding a token that others can read is refused, as ssh refuses a private key
 * others can read.
 *
 * @param url the server's address, without a trailing slash or {@code /v1}
 * @param org the organization's slug when one was given (the flaky listing names it)
 */
public record Settings(URI url, String token, Optional<String> org) {
  public static final String DEFAULT_URL = "http://localhost:8080";

  private static final Set<PosixFilePermission> OWNERS =
      Set.of(
          PosixFilePermission.OWNER_READ,
          PosixFilePermission.OWNER_WRITE,
          PosixFilePermission.OWNER_EXECUTE);

  /** The options as given (null when absent) and the process's environment. */
  public static Settings resolve(
      String urlOption, String tokenOption, String orgOption, Map<String, String> env) {
    Path file = configFile(env);
    Properties config = read(file);
    String url = first(urlOption, env.get("TRAINYARD_URL"), config.getProperty("url"));
    String token = first(tokenOption, env.get("TRAINYARD_TOKEN"), config.getProperty("token"));
    String org = first(orgOption, env.get("TRAINYARD_ORG"), config.getProperty("org"));
    if (token == null) {
      throw Refused.usage(
          "no API token: give --token, set TRAINYARD_TOKEN, or write token=<token> in " + file);
    }
    return new Settings(address(url == null ? DEFAULT_URL : url), token, Optional.ofNullable(org));
  }

  /**
   * Whether the token would cross a network in the clear: plain http to a host other than this
   * machine's loopback (the standalone on {@code localhost}, a gateway's own pod).
   */
  public boolean tokenInTheClear() {
    String host = url.getHost().toLowerCase(java.util.Locale.ROOT);
    boolean loopback = host.equals("localhost") || host.startsWith("127.") || host.equals("[::1]");
    return url.getScheme().equalsIgnoreCase("http") && !loopback;
  }

  /**
   * {@code TRAINYARD_CONFIG}, else {@code trainyard/config} under {@code XDG_CONFIG_HOME}, else
   * under {@code ~/.config}.
   */
  static Path configFile(Map<String, String> env) {
    if (present(env.get("TRAINYARD_CONFIG"))) {
      return Path.of(env.get("TRAINYARD_CONFIG"));
    }
    Path base =
        present(env.get("XDG_CONFIG_HOME"))
            ? Path.of(env.get("XDG_CONFIG_HOME"))
            : Path.of(env.getOrDefault("HOME", System.getProperty("user.home")), ".config");
    return base.resolve("trainyard").resolve("config");
  }

  private static Properties read(Path file) {
    Properties config = new Properties();
    if (!Files.isRegularFile(file)) {
      return config;
    }
    try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      config.load(reader);
    } catch (IOException | IllegalArgumentException e) {
      throw Refused.usage("cannot read " + file + ": " + e.getMessage());
    }
    if (config.getProperty("token") != null && othersMayRead(file)) {
      throw Refused.usage(
          file + " holds a token but other users may read it; run: chmod 600 " + file);
    }
    return config;
  }

  private static boolean othersMayRead(Path file) {
    try {
      return !OWNERS.containsAll(Files.getPosixFilePermissions(file));
    } catch (UnsupportedOperationException notPosix) {
      return false; // a file system without POSIX permissions has its own access control
    } catch (IOException e) {
      throw Refused.usage("cannot read " + file + ": " + e.getMessage());
    }
  }

  /** An http(s) address with a host; a trailing {@code /} or {@code /v1} is dropped. */
  static URI address(String url) {
    String trimmed = url.strip().replaceAll("/+$", "").replaceAll("/v1$", "");
    try {
      URI uri = new URI(trimmed);
      boolean http =
          "http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme());
      if (!http || uri.getHost() == null || uri.getQuery() != null || uri.getFragment() != null) {
        throw new URISyntaxException(url, "not an http(s) address");
      }
      return uri;
    } catch (URISyntaxException e) {
      throw Refused.usage(
          "the server's address '" + url + "' is not an http(s) address like " + DEFAULT_URL);
    }
  }

  private static String first(String... values) {
    for (String value : values) {
      if (present(value)) {
        return value.strip();
      }
    }
    return null;
  }

  private static boolean present(String value) {
    return value != null && !value.isBlank();
  }
}

package dev.trainyard.common.queue;

import dev.trainyard.common.json.InvalidRequestException;
import java.util.regex.Pattern;

/**
 * The one validator of the names that become paths and refs in git repositories (API.md §1): a
 * repository's host, owner and name, and a target branch. Every service checks them at its edge
 * with this class, so nothing a client sends can leave the organization's git folder or name a ref
 * outside {@code refs/heads/}.
 */
public final class RepoNames {
  /** The longest name the API takes. */
  public static final int MAX_LENGTH = 255;

  private static final Pattern HOST = Pattern.compile("[A-Za-z0-9.:\\[\\]-]+");
  private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9._-]+");

  /** Characters {@code git check-ref-format} refuses anywhere in a ref name (besides controls). */
  private static final String REF_FORBIDDEN = " ~^:?*[\\";

  private RepoNames() {}

  /** {@code repo.host}: a host name or address with an optional port. */
  public static String host(String field, String value) {
    return matching(
        field,
        value,
        HOST,
        "a host name or address with an optional port (letters, digits, '.', '-', ':', '[', ']')");
  }

  /** {@code repo.owner} or {@code repo.name}: one path segment. */
  public static String segment(String field, String value) {
    return matching(field, value, SEGMENT, "one path segment (letters, digits, '.', '_', '-')");
  }

  /** A branch name as {@code git check-ref-format --branch} accepts it. */
  public static String branch(String field, String value) {
    String problem = branchProblem(value);
    if (problem != null) {
      throw new InvalidRequestException(field + " must be a valid git branch name: " + problem);
    }
    return value;
  }

  private static String matching(String field, String value, Pattern allowed, String what) {
    bounded(field, value);
    if (!allowed.matcher(value).matches() || value.equals(".") || value.equals("..")) {
      throw new InvalidRequestException(field + " must be " + what + ", not . or ..");
    }
    return value;
  }

  private static void bounded(String field, String value) {
    if (value == null || value.isEmpty() || value.length() > MAX_LENGTH) {
      throw new InvalidRequestException(
          field + " must be a non-empty string of at most " + MAX_LENGTH + " characters");
    }
  }

  /** Why {@code name} is not a branch name, or null when it is one. */
  private static String branchProblem(String name) {
    if (name == null || name.isEmpty() || name.length() > MAX_LENGTH) {
      return "a non-empty string of at most " + MAX_LENGTH + " characters";
    }
    if (name.startsWith("-") || name.equals("@") || name.equals("HEAD")) {
      return "it may not start with '-' or be '@' or HEAD";
    }
    if (name.contains("..") || name.contains("@{") || name.contains("//")) {
      return "it may not contain '..', '@{' or '//'";
    }
    if (name.startsWith("/") || name.endsWith("/") || name.endsWith(".")) {
      return "it may not start or end with '/' or end with '.'";
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c < 0x20 || c == 0x7f || REF_FORBIDDEN.indexOf(c) >= 0) {
        return "it may not contain control characters, spaces or any of ~^:?*[\\";
      }
    }
    for (String component : name.split("/")) {
      if (component.startsWith(".") || component.endsWith(".lock")) {
        return "no part may start with '.' or end with '.lock'";
      }
    }
    return null;
  }
}

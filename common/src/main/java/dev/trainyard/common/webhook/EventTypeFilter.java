package dev.trainyard.common.webhook;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Which event types an endpoint receives: all when it names none; otherwise exact types ({@code
 * pull_request.merged}), prefixes ({@code pull_request.*}) or {@code *}.
 */
public final class EventTypeFilter {
  private static final Pattern VALID = Pattern.compile("\\*|[a-z_]+(\\.[a-z_]+)*(\\.\\*)?");

  private EventTypeFilter() {}

  public static boolean matches(List<String> filters, String type) {
    if (filters == null || filters.isEmpty()) {
      return true;
    }
    for (String filter : filters) {
      if (filter.equals("*") || filter.equals(type)) {
        return true;
      }
      if (filter.endsWith(".*") && type.startsWith(filter.substring(0, filter.length() - 1))) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code filter} is a type, a {@code prefix.*} or {@code *}. */
  public static boolean isValid(String filter) {
    return VALID.matcher(filter).matches();
  }
}

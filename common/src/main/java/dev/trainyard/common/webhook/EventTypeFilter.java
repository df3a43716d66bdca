package dev.trainyard.common.webhook;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Which event types an endpoint receives: all when it names none; otherwise exact types ({@code
 * pull_request.merged}), prefixes ({@code pull_request.*}) or {@code *}. The audit log's events
 * ({@value #OPT_IN}) go only to endpoints that name them ({@code audit_event.recorded} or {@code
 * audit_event.*}): they carry people's addresses, and an endpoint made for merges did not ask for
 * them.
 */
public final class EventTypeFilter {
  private static final Pattern VALID = Pattern.compile("\\*|[a-z_]+(\\.[a-z_]+)*(\\.\\*)?");

  /** The prefix of the types only an endpoint naming them receives. */
  public static final String OPT_IN = "audit_event.";

  private EventTypeFilter() {}

  public static boolean matches(List<String> filters, String type) {
    boolean optIn = type.startsWith(OPT_IN);
    if (filters == null || filters.isEmpty()) {
      return !optIn;
    }
    for (String filter : filters) {
      if ((filter.equals("*") && !optIn) || filter.equals(type)) {
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

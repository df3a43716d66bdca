package dev.trainyard.gateway.ui;

import dev.trainyard.common.queue.MergeMethod;
import dev.trainyard.common.queue.QueueMode;
import dev.trainyard.common.queue.QueueSettings;
import dev.trainyard.common.queue.WireEnum;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.util.MultiValueMap;

/**
 * The queue settings the queue page edits, and how its form becomes an {@code updateQueue} body:
 * the same validation then applies as to the API (ranges, enums), with the same 400 sentences.
 */
public record SettingsForm(List<Field> fields, String version) {

  /**
   * One input: {@code type} is {@code number}, {@code checkbox}, {@code select}, {@code text} or
   * {@code textarea}.
   */
  public record Field(String name, String label, String type, String value, List<String> options) {
    public boolean checked() {
      return "true".equals(value);
    }
  }

  private static final List<String> NUMBERS =
      List.of(
          "concurrency",
          "bisectionConcurrency",
          "testingTimeoutMinutes",
          "pendingFailureDepth",
          "batchingMinSize",
          "batchingMaxWaitTimeMinutes",
          "batchingMaxSize",
          "ciBudgetMinutesPerMerge",
          "notReadyTimeoutHours");
  static final List<String> FLAGS =
      List.of("batch", "batchingAdaptive", "canOptimisticallyMerge", "concurrencyAdaptive");

  static SettingsForm of(QueueSettings s) {
    return new SettingsForm(fields(s), s.version());
  }

  private static List<Field> fields(QueueSettings s) {
    return List.of(
        select("mode", "Mode", s.mode(), QueueMode.values()),
        number("concurrency", "Test runs at once", s.concurrency()),
        flag(
            "concurrencyAdaptive",
            "Fewer runs at once after failures (adaptive)",
            s.concurrencyAdaptive()),
        number("bisectionConcurrency", "Bisection runs at once", s.bisectionConcurrency()),
        number("testingTimeoutMinutes", "Testing timeout (minutes)", s.testingTimeoutMinutes()),
        number("pendingFailureDepth", "Pending failure depth", s.pendingFailureDepth()),
        flag("batch", "Batch PRs", s.batch()),
        number("batchingMinSize", "Batch size", s.batchingMinSize()),
        number(
            "batchingMaxWaitTimeMinutes",
            "Longest wait to fill a batch (minutes)",
            s.batchingMaxWaitTimeMinutes()),
        flag(
            "batchingAdaptive",
            "Batch size from the failure rate (adaptive)",
            s.batchingAdaptive()),
        number("batchingMaxSize", "Largest adaptive batch", s.batchingMaxSize()),
        number(
            "ciBudgetMinutesPerMerge",
            "CI budget of adaptive batching, minutes per merged PR (0: fewest runs)",
            s.ciBudgetMinutesPerMerge()),
        flag("canOptimisticallyMerge", "Merge optimistically", s.canOptimisticallyMerge()),
        select("mergeMethod", "Merge method", s.mergeMethod(), MergeMethod.values()),
        new Field(
            "requiredStatuses",
            "Required statuses (comma-separated; empty: the branch's own rules)",
            "text",
            s.requiredStatuses() == null ? "" : String.join(", ", s.requiredStatuses()),
            List.of()),
        number("notReadyTimeoutHours", "Not-ready timeout (hours)", s.notReadyTimeoutHours()),
        new Field(
            "mergeCommitTitle",
            "Commit message title (empty: the merge method's default; {{number}}, {{title}},"
                + " {{author}}, {{body}}, {{coAuthors}}, {{runId}}, {{targetBranch}}, {{repo}})",
            "text",
            s.mergeCommitMessage() == null ? "" : s.mergeCommitMessage().title(),
            List.of()),
        new Field(
            "mergeCommitBody",
            "Commit message body (the same placeholders)",
            "textarea",
            s.mergeCommitMessage() == null ? "" : s.mergeCommitMessage().body(),
            List.of()));
  }

  /**
   * The values the form shows, as one hidden field ({@code name=value&…}, escaped): sent back with
   * the form, so that a refused stale form can say what someone else changed meanwhile.
   */
  public String shown() {
    StringBuilder out = new StringBuilder();
    for (Field f : fields) {
      out.append(out.isEmpty() ? "" : "&")
          .append(URLEncoder.encode(f.name(), StandardCharsets.UTF_8))
          .append('=')
          .append(URLEncoder.encode(f.value(), StandardCharsets.UTF_8));
    }
    return out.toString();
  }

  /**
   * What differs between the values a form showed ({@link #shown}) and these: {@code "Label: was →
   * now"} for each setting changed since; a field the form did not show is left out.
   */
  List<String> changedSince(String shown) {
    Map<String, String> before = new LinkedHashMap<>();
    for (String pair : (shown == null ? "" : shown).split("&")) {
      int eq = pair.indexOf('=');
      try {
        if (eq > 0) {
          before.put(
              URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
              URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
      } catch (IllegalArgumentException e) {
        // the browser sends back what the page held; anything else says nothing of what changed
      }
    }
    List<String> changes = new java.util.ArrayList<>();
    for (Field f : fields) {
      String was = before.get(f.name());
      if (was != null && !was.equals(f.value())) {
        changes.add(f.label() + ": " + shownAs(was) + " → " + shownAs(f.value()));
      }
    }
    return changes;
  }

  private static String shownAs(String value) {
    return value.isEmpty() ? "(none)" : value;
  }

  private static Field number(String name, String label, long value) {
    return new Field(name, label, "number", Long.toString(value), List.of());
  }

  private static Field flag(String name, String label, boolean value) {
    return new Field(name, label, "checkbox", Boolean.toString(value), List.of());
  }

  private static Field select(String name, String label, WireEnum value, WireEnum[] all) {
    return new Field(
        name, label, "select", value.wire(), Arrays.stream(all).map(WireEnum::wire).toList());
  }

  /**
   * The {@code updateQueue} settings a submitted form holds: numbers stay text when they are not
   * numbers (the API's validation names the field), an unticked box is false, an empty status list
   * goes back to the branch's rules, an empty commit message title to the merge method's default.
   */
  static Map<String, Object> patch(MultiValueMap<String, String> form) {
    Map<String, Object> patch = new LinkedHashMap<>();
    for (String name : NUMBERS) {
      String v = form.getFirst(name);
      if (v != null && !v.isBlank()) {
        try {
          patch.put(name, Long.parseLong(v.strip()));
        } catch (NumberFormatException e) {
          patch.put(name, v);
        }
      }
    }
    for (String name : FLAGS) {
      patch.put(name, form.containsKey(name));
    }
    for (String name : List.of("mode", "mergeMethod")) {
      if (form.getFirst(name) != null) {
        patch.put(name, form.getFirst(name));
      }
    }
    String title = form.getFirst("mergeCommitTitle");
    if (title != null && title.isBlank()) {
      patch.put("mergeCommitMessage", null); // back to the merge method's default
    } else if (title != null) {
      Map<String, String> message = new LinkedHashMap<>();
      message.put("title", title.strip());
      message.put(
          "body", java.util.Objects.requireNonNullElse(form.getFirst("mergeCommitBody"), ""));
      patch.put("mergeCommitMessage", message);
    }
    String statuses = form.getFirst("requiredStatuses");
    if (statuses != null && statuses.isBlank()) {
      patch.put("deleteRequiredStatuses", true);
    } else if (statuses != null) {
      patch.put(
          "requiredStatuses",
          Arrays.stream(statuses.split(",")).map(String::strip).filter(x -> !x.isEmpty()).toList());
    }
    return patch;
  }
}

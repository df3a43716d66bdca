package dev.trainyard.worker.scm.github;

import dev.trainyard.common.command.QueueCommand.RecordRequiredChecks;
import dev.trainyard.common.command.RequiredCheck;
import dev.trainyard.common.github.GithubClient.Answer;
import dev.trainyard.common.github.ListPages;
import dev.trainyard.common.queue.OrgRepo;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * The required checks GitHub declares for a branch (API.md §6 "Which checks must pass"): classic
 * branch protection's required status checks ({@code GET /branches/{branch}}, whose {@code
 * protection} every App with metadata access reads) and the {@code required_status_checks} rule of
 * every active ruleset that targets the branch ({@code GET /rules/branches/{branch}}, repository
 * and organization rulesets alike, every page of them), with the App each is bound to ({@code
 * app_id}, {@code integration_id}). Answers are cached per repository and branch for {@link #FRESH}
 * (a refusal for {@link #REFUSED_FRESH}, so a granted permission is seen soon); GitHub's {@code
 * branch_protection_rule} and {@code repository_ruleset} deliveries ask for a fresh read. Rule
 * types it does not know are skipped with a log line, never a failure.
 */
final class BranchRules {
  private static final Logger log = LoggerFactory.getLogger(BranchRules.class);
  static final Duration FRESH = Duration.ofMinutes(10);
  static final Duration REFUSED_FRESH = Duration.ofMinutes(1);
  private static final String CHECKS_RULE = "required_status_checks";

  /** Rule types that exist and require no check: nothing to log. */
  private static final Set<String> KNOWN_RULES =
      Set.of(
          "creation",
          "update",
          "deletion",
          "required_linear_history",
          "merge_queue",
          "required_deployments",
          "required_signatures",
          "pull_request",
          "non_fast_forward",
          "commit_message_pattern",
          "commit_author_email_pattern",
          "committer_email_pattern",
          "branch_name_pattern",
          "tag_name_pattern",
          "file_path_restriction",
          "max_file_path_length",
          "file_extension_restriction",
          "max_file_size",
          "workflows",
          "code_scanning",
          "copilot_code_review");

  /** A GET on a repository as its installation, answering any of {@code expected}. */
  interface Reads {
    Answer get(OrgRepo repo, String path, int... expected);
  }

  private record Cached(RecordRequiredChecks checks, Instant at) {}

  private final Reads github;
  private final InstantSource clock;
  private final Map<String, Cached> cache = new ConcurrentHashMap<>();
  private final Set<String> unknownTypes = ConcurrentHashMap.newKeySet();

  BranchRules(Reads github, InstantSource clock) {
    this.github = github;
    this.clock = clock;
  }

  RecordRequiredChecks read(OrgRepo repo, String branch, boolean fresh) {
    String key = repo.org() + "/" + repo.repo().slug() + ":" + branch;
    Cached cached = cache.get(key);
    Instant now = clock.instant();
    if (!fresh && cached != null) {
      Duration age = cached.checks().problem() == null ? FRESH : REFUSED_FRESH;
      if (cached.at().plus(age).isAfter(now)) {
        return cached.checks();
      }
    }
    RecordRequiredChecks read = readNow(repo, branch);
    cache.put(key, new Cached(read, now));
    return read;
  }

  private RecordRequiredChecks readNow(OrgRepo repo, String branch) {
    String path = dev.trainyard.common.github.GithubClient.segments(branch);
    Answer protection = github.get(repo, "/branches/" + path, 200, 403, 404);
    if (protection.status() == 403) {
      return refused("/branches/" + branch, protection);
    }
    Answer rules =
        ListPages.all(p -> github.get(repo, p, 200, 403, 404), "/rules/branches/" + path);
    if (rules.status() == 403) {
      return refused("/rules/branches/" + branch, rules);
    }
    Set<RequiredCheck> checks = new LinkedHashSet<>();
    if (protection.status() == 200 && protection.body().path("protected").asBoolean(false)) {
      checks.addAll(classic(protection.body().path("protection").path("required_status_checks")));
    }
    if (rules.status() == 200) {
      checks.addAll(ruleset(rules.body()));
    }
    return new RecordRequiredChecks(List.copyOf(checks), null);
  }

  /**
   * Classic protection: {@code checks} with their apps, or (older servers) bare {@code contexts}.
   */
  private static List<RequiredCheck> classic(JsonNode required) {
    if (required.path("checks").isArray() && !required.path("checks").isEmpty()) {
      return required.path("checks").valueStream().map(c -> check(c, "app_id")).toList();
    }
    return required
        .path("contexts")
        .valueStream()
        .map(c -> RequiredCheck.named(c.asString()))
        .toList();
  }

  private List<RequiredCheck> ruleset(JsonNode rules) {
    List<RequiredCheck> out = new java.util.ArrayList<>();
    for (JsonNode rule : rules) {
      String type = rule.path("type").asString("");
      if (type.equals(CHECKS_RULE)) {
        rule.path("parameters")
            .path("required_status_checks")
            .forEach(c -> out.add(check(c, "integration_id")));
      } else if (!KNOWN_RULES.contains(type) && unknownTypes.add(type)) {
        log.info("a ruleset rule of type '{}' is not one trainyard knows; it is ignored", type);
      }
    }
    return out;
  }

  private static RequiredCheck check(JsonNode check, String appField) {
    JsonNode app = check.path(appField);
    // GitHub answers app_id -1 for "any source" on some servers
    Long appId = app.isNumber() && app.asLong() > 0 ? app.asLong() : null;
    return new RequiredCheck(check.path("context").asString(""), appId);
  }

  private static RecordRequiredChecks refused(String what, Answer answer) {
    return new RecordRequiredChecks(
        List.of(),
        "GitHub refused GET "
            + what
            + " (HTTP 403): "
            + answer.message()
            + "; the App needs the Contents and Metadata read permissions to read the target"
            + " branch's required checks (or set requiredStatuses on the queue)");
  }
}

package dev.trainyard.common.github;

import dev.trainyard.common.queue.MergeMethod;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Whether GitHub will let trainyard land on a branch by a merge method, read from what GitHub shows
 * any App with metadata access: the repository's {@code allow_squash_merge} and {@code
 * allow_rebase_merge} ({@code GET /repos/{o}/{r}}) and the branch's active rules ({@code GET
 * /rules/branches/{b}}: repository and organization rulesets). Classic protection's linear-history
 * setting is readable only with administration access, so it is not seen here: a landing it refuses
 * is reported then, with GitHub's words.
 *
 * <p>{@code merge_commit} lands by moving the branch to the tested merge commit, which GitHub's
 * {@code allow_merge_commit} (a setting of the merge button) does not govern; a required linear
 * history does. {@code squash} and {@code rebase} land through the merge endpoint, which the
 * repository's settings and a ruleset's {@code allowed_merge_methods} govern. A branch that must be
 * changed through GitHub's own merge queue takes no landing from anyone else. Strict required
 * checks ("require branches to be up to date") refuse the merge endpoint a head behind the branch,
 * which every PR after the first of a batch is; a required signature refuses the unsigned commits
 * of a rebase merge (GitHub signs the commit of a squash). The ref update of {@code merge_commit}
 * lands the PRs' own commits, which must then be signed themselves: GitHub refuses it otherwise,
 * with its words, at landing.
 */
public final class LandingRules {
  private LandingRules() {}

  /** Why a squash or rebase landing of a batch fails on a branch with strict required checks. */
  static final String UP_TO_DATE =
      " requires branches to be up to date before merging, so GitHub refuses a pull request whose"
          + " head does not contain the branch's head: every PR of a squash or rebase batch after"
          + " the first, and any PR tested on a target that moved since its branch was made; use"
          + " merge_commit, which lands the tested commit itself";

  /**
   * Why GitHub will refuse landings by {@code method}; empty when it will not.
   *
   * @param rules every active rule of the branch ({@code GET /rules/branches/{b}}, all pages)
   * @param classicChecks classic protection's required status checks ({@code GET
   *     /branches/{b}/protection/required_status_checks}, which needs administration access); a
   *     missing node when GitHub would not show them
   */
  public static Optional<String> refusal(
      MergeMethod method, JsonNode repository, JsonNode rules, JsonNode classicChecks) {
    String name = repository.path("full_name").asString("the repository");
    boolean viaPulls = method != MergeMethod.MERGE_COMMIT;
    if (viaPulls && classicChecks.path("strict").asBoolean(false)) {
      return Optional.of("branch protection" + UP_TO_DATE);
    }
    for (JsonNode rule : rules) {
      String type = rule.path("type").asString("");
      if (viaPulls
          && type.equals("required_status_checks")
          && rule.path("parameters")
              .path("strict_required_status_checks_policy")
              .asBoolean(false)) {
        return Optional.of("a ruleset (strict_required_status_checks_policy)" + UP_TO_DATE);
      }
      if (type.equals("required_signatures") && method == MergeMethod.REBASE) {
        return Optional.of(
            "a ruleset requires signed commits, and GitHub does not sign the commits a rebase"
                + " merge makes; use squash, whose commit GitHub signs");
      }
      if (type.equals("merge_queue")) {
        return Optional.of(
            "a ruleset requires GitHub's merge queue on this branch, which takes no merge from"
                + " anyone else");
      }
      if (type.equals("required_linear_history") && method == MergeMethod.MERGE_COMMIT) {
        return Optional.of(
            "a ruleset requires a linear history on this branch, so GitHub refuses merge"
                + " commits; use squash or rebase");
      }
      JsonNode allowed = rule.path("parameters").path("allowed_merge_methods");
      String wanted = endpointMethod(method);
      if (type.equals("pull_request")
          && method != MergeMethod.MERGE_COMMIT
          && allowed.isArray()
          && allowed.valueStream().noneMatch(m -> m.asString("").equals(wanted))) {
        return Optional.of(
            "a ruleset allows only "
                + allowed.valueStream().map(m -> m.asString("")).toList()
                + " merges on this branch");
      }
    }
    String setting =
        switch (method) {
          case MERGE_COMMIT -> null;
          case SQUASH -> "allow_squash_merge";
          case REBASE -> "allow_rebase_merge";
        };
    if (setting != null
        && repository.path(setting).isBoolean()
        && !repository.path(setting).asBoolean()) {
      return Optional.of(
          name + " does not allow " + endpointMethod(method) + " merges (" + setting + ")");
    }
    return Optional.empty();
  }

  /** The merge endpoint's {@code merge_method} of {@code method}. */
  public static String endpointMethod(MergeMethod method) {
    return switch (method) {
      case MERGE_COMMIT -> "merge";
      case SQUASH -> "squash";
      case REBASE -> "rebase";
    };
  }
}

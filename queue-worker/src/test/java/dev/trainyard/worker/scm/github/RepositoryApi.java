package dev.trainyard.worker.scm.github;

import dev.trainyard.common.json.Json;
import dev.trainyard.worker.scm.github.GithubSimulator.Answer;
import dev.trainyard.worker.scm.github.SimulatedRepository.CheckRun;
import dev.trainyard.worker.scm.github.SimulatedRepository.Comment;
import dev.trainyard.worker.scm.github.SimulatedRepository.PullRequest;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.revwalk.RevCommit;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The REST calls on one repository of the {@link GithubSimulator}, answered the way GitHub answers
 * them (statuses, error sentences, and the description's example bodies filled in with this
 * repository's real refs and commits).
 */
final class RepositoryApi {
  private static final AtomicLong IDS = new AtomicLong(1000);
  private static final Pattern PULL = Pattern.compile("/pulls/(\\d+)(/merge|/commits)?");
  private static final Pattern ISSUE_COMMENTS = Pattern.compile("/issues/(\\d+)/comments");
  private static final Pattern ISSUE_LABELS = Pattern.compile("/issues/(\\d+)/labels");
  private static final Pattern ISSUE_LABEL = Pattern.compile("/issues/(\\d+)/labels/(.+)");
  private static final Pattern CHECK_RUN = Pattern.compile("/check-runs/(\\d+)");
  private static final Pattern COMMIT_CHECK_RUNS = Pattern.compile("/commits/(.+)/check-runs");
  private static final Pattern COMMIT_CHECK_SUITES = Pattern.compile("/commits/(.+)/check-suites");
  private static final Pattern PERMISSION = Pattern.compile("/collaborators/([^/]+)/permission");
  private static final Pattern COMMIT_STATUS = Pattern.compile("/commits/([^/]+)/status");
  private static final Pattern COMMIT_STATUSES = Pattern.compile("/commits/([^/]+)/statuses");
  private static final String CLASSIC_CHECKS = "/protection/required_status_checks";
  private final GithubSimulator github;
  private final SimulatedRepository repo;
  private final String method;
  private final String path;
  private final String rest;
  private final JsonNode body;

  RepositoryApi(
      GithubSimulator github,
      SimulatedRepository repo,
      String method,
      String path,
      String rest,
      JsonNode body) {
    this.github = github;
    this.repo = repo;
    this.method = method;
    this.path = path;
    this.rest = rest.contains("?") ? rest.substring(0, rest.indexOf('?')) : rest;
    this.body = body;
  }

  Answer answer() {
    synchronized (repo) {
      return route();
    }
  }

  private Answer route() {
    Matcher m;
    if (method.equals("GET") && rest.isEmpty()) {
      ObjectNode repository = example(200);
      String[] names = repo.fullName.split("/");
      repository.put("name", names[1]).put("full_name", repo.fullName);
      // GitHub's example is a fork whose objects lack fields its own schema requires
      repository.remove("source");
      repository.remove("parent");
      repository.put("fork", false);
      if (!repository.has("language")) {
        repository.putNull("language");
      }
      ((ObjectNode) repository.get("owner")).put("login", names[0]);
      repository.put("id", repo.id());
      for (String method : List.of("merge", "squash", "rebase")) {
        repository.put(
            "allow_" + (method.equals("merge") ? "merge_commit" : method + "_merge"),
            !repo.disabledMergeMethods.contains(method));
      }
      return new Answer(200, repository);
    }
    if (method.equals("GET") && rest.startsWith("/git/ref/")) {
      return readRef("refs/" + decoded(rest.substring("/git/ref/".length())));
    }
    if (method.equals("POST") && rest.equals("/git/refs")) {
      return createRef();
    }
    if (rest.startsWith("/git/refs/") && method.equals("PATCH")) {
      return updateRef("refs/" + decoded(rest.substring("/git/refs/".length())));
    }
    if (rest.startsWith("/git/refs/") && method.equals("DELETE")) {
      return deleteRef("refs/" + decoded(rest.substring("/git/refs/".length())));
    }
    if (method.equals("GET") && rest.startsWith("/git/commits/")) {
      return commit(rest.substring("/git/commits/".length()));
    }
    if (method.equals("GET") && rest.startsWith("/compare/")) {
      return compare(decoded(rest.substring("/compare/".length())));
    }
    if (method.equals("POST") && rest.equals("/merges")) {
      return mergeBranch();
    }
    if (rest.equals("/pulls") && method.equals("GET")) {
      return listPulls();
    }
    if (rest.equals("/pulls") && method.equals("POST")) {
      return createPull();
    }
    if ((m = PULL.matcher(rest)).matches()) {
      Optional<PullRequest> pr = repo.pull(Long.parseLong(m.group(1)));
      if (pr.isEmpty()) {
        return notFound();
      }
      if (m.group(2) == null && method.equals("GET")) {
        return new Answer(200, pull(pr.get()));
      }
      if (m.group(2) == null && method.equals("PATCH")) {
        return updatePull(pr.get());
      }
      if ("/merge".equals(m.group(2)) && method.equals("PUT")) {
        return mergePull(pr.get());
      }
      if ("/commits".equals(m.group(2)) && method.equals("GET")) {
        return pullCommits(pr.get());
      }
    }
    if (method.equals("POST") && rest.equals("/check-runs")) {
      return checkRun(IDS.incrementAndGet(), 201);
    }
    if (method.equals("PATCH") && (m = CHECK_RUN.matcher(rest)).matches()) {
      return checkRun(Long.parseLong(m.group(1)), 200);
    }
    if (method.equals("GET") && (m = COMMIT_CHECK_RUNS.matcher(rest)).matches()) {
      return checkRunsOf(m.group(1));
    }
    if (method.equals("GET") && (m = COMMIT_CHECK_SUITES.matcher(rest)).matches()) {
      return checkSuitesOf(m.group(1));
    }
    if ((m = ISSUE_LABEL.matcher(rest)).matches() && method.equals("DELETE")) {
      return removeLabel(Long.parseLong(m.group(1)), decoded(m.group(2)));
    }
    if ((m = ISSUE_LABELS.matcher(rest)).matches()) {
      return issueLabels(Long.parseLong(m.group(1)));
    }
    if (method.equals("POST") && rest.equals("/labels")) {
      return createLabel();
    }
    if ((m = ISSUE_COMMENTS.matcher(rest)).matches()) {
      return comments(Long.parseLong(m.group(1)));
    }
    if (method.equals("GET") && (m = PERMISSION.matcher(rest)).matches()) {
      return permission(m.group(1));
    }
    if (method.equals("GET") && rest.startsWith("/branches/") && rest.endsWith(CLASSIC_CHECKS)) {
      return classicChecks(
          decoded(rest.substring("/branches/".length(), rest.length() - CLASSIC_CHECKS.length())));
    }
    if (method.equals("GET") && rest.startsWith("/branches/")) {
      return branch(decoded(rest.substring("/branches/".length())));
    }
    if (method.equals("GET") && rest.startsWith("/rules/branches/")) {
      return rules(decoded(rest.substring("/rules/branches/".length())));
    }
    if (method.equals("GET") && (m = COMMIT_STATUSES.matcher(rest)).matches()) {
      return statuses(m.group(1));
    }
    if (method.equals("GET") && (m = COMMIT_STATUS.matcher(rest)).matches()) {
      return combinedStatus(m.group(1));
    }
    return notFound();
  }

  private Answer readRef(String ref) {
    return repo.ref(ref).map(sha -> new Answer(200, ref(ref, sha))).orElseGet(this::notFound);
  }

  private Answer createRef() {
    String ref = body.path("ref").asString("");
    String sha = body.path("sha").asString("");
    if (!ref.startsWith("refs/") || ref.split("/").length < 3) {
      return invalid("ref must be fully qualified (refs/heads/...)");
    }
    if (!repo.hasCommit(sha)) {
      return invalid("Object does not exist");
    }
    if (repo.ref(ref).isPresent()) {
      return invalid("Reference already exists");
    }
    repo.setRef(ref, sha);
    github.webhooks().push(repo, ref, null, sha);
    return new Answer(201, ref(ref, sha));
  }

  private Answer updateRef(String ref) {
    Optional<String> current = repo.ref(ref);
    String sha = body.path("sha").asString("");
    if (current.isEmpty()) {
      return invalid("Reference does not exist");
    }
    if (!repo.hasCommit(sha)) {
      return invalid("Object does not exist");
    }
    if (!body.path("force").asBoolean(false) && !repo.contains(sha, current.get())) {
      return invalid("Update is not a fast forward");
    }
    String refused =
        ref.startsWith("refs/heads/")
            ? repo.protectedRefs.get(ref.substring("refs/heads/".length()))
            : null;
    if (refused == null && ref.startsWith("refs/heads/")) {
      refused = ruleRefusal(ref.substring("refs/heads/".length()), sha);
    }
    if (refused != null) {
      return invalid(refused);
    }
    moved(ref, current.get(), sha);
    return new Answer(200, ref(ref, sha));
  }

  /** GitHub's refusal of moving {@code branch} to {@code sha} under its rulesets, or null. */
  private String ruleRefusal(String branch, String sha) {
    Map<String, Map<String, Object>> rules = repo.branchRules.getOrDefault(branch, Map.of());
    if (rules.containsKey("merge_queue")) {
      return "Repository rule violations found\n\nChanges must be made through the merge queue";
    }
    if (rules.containsKey("required_linear_history") && repo.parents(sha) > 1) {
      return "Repository rule violations found\n\nThis branch must not contain merge commits.";
    }
    return null;
  }

  private Answer deleteRef(String ref) {
    Optional<String> current = repo.ref(ref);
    if (current.isEmpty()) {
      return invalid("Reference does not exist");
    }
    repo.deleteRef(ref);
    github.webhooks().push(repo, ref, current.get(), null);
    if (ref.startsWith(Constants.R_HEADS)) {
      headDeleted(ref.substring(Constants.R_HEADS.length()), current.get());
    }
    return new Answer(204, null);
  }

  /**
   * GitHub closes the open pull requests whose head branch is deleted (they keep the head they
   * had); a test branch deleted before its draft PR is closed ends that PR so.
   */
  private void headDeleted(String branch, String head) {
    for (PullRequest pr : repo.pulls.values()) {
      if (!pr.headBranch.equals(branch)) {
        continue;
      }
      pr.deletedHead = head;
      if (pr.open()) {
        pr.open = false;
        github.webhooks().pullRequest(repo, pr, "closed", null);
      }
    }
  }

  private Answer commit(String sha) {
    if (!repo.hasCommit(sha)) {
      return notFound();
    }
    ObjectNode commit = example(200);
    commit.put("sha", sha);
    ((ObjectNode) commit.get("tree")).put("sha", repo.tree(sha));
    // the commit's own parents, as GitHub gives them (the example names others)
    ArrayNode parents = (ArrayNode) commit.withArray("parents");
    ObjectNode template = parents.isEmpty() ? null : (ObjectNode) parents.get(0).deepCopy();
    parents.removeAll();
    for (String parent : repo.parentShas(sha)) {
      ObjectNode p = template == null ? parents.addObject() : parents.addObject().setAll(template);
      p.put("sha", parent);
    }
    return new Answer(200, commit);
  }

  /** {@code POST /merges}: merges {@code head} into branch {@code base} with a merge commit. */
  private Answer mergeBranch() {
    String branch = body.path("base").asString("");
    String head = resolve(body.path("head").asString(""));
    Optional<String> base = repo.head(branch);
    if (base.isEmpty() || head == null) {
      return new Answer(404, GithubSimulator.message("Base does not exist"));
    }
    if (repo.contains(base.get(), head)) {
      return new Answer(204, null); // nothing to merge
    }
    Optional<ObjectId> tree = repo.mergedTree(base.get(), head, null);
    if (tree.isEmpty()) {
      return new Answer(409, GithubSimulator.message("Merge conflict"));
    }
    String message = body.path("commit_message").asString("Merge " + head + " into " + branch);
    String merged = repo.commit(tree.get(), message, base.get(), head);
    moved("refs/heads/" + branch, base.get(), merged);
    ObjectNode commit = example(201);
    commit.put("sha", merged);
    commit.putArray("files"); // GitHub's example lists files its own schema refuses
    // the merge commit's parents, as GitHub gives them: the base branch's head, then the head
    ArrayNode parents = (ArrayNode) commit.withArray("parents");
    ObjectNode template = parents.isEmpty() ? null : (ObjectNode) parents.get(0).deepCopy();
    parents.removeAll();
    for (String parent : List.of(base.get(), head)) {
      ObjectNode p = template == null ? parents.addObject() : parents.addObject().setAll(template);
      p.put("sha", parent);
    }
    return new Answer(201, commit);
  }

  /** {@code PUT /pulls/{n}/merge}: lands the PR by {@code merge_method} onto its base. */
  private Answer mergePull(PullRequest pr) {
    String head = repo.headOf(pr);
    if (!pr.open() || pr.merged()) {
      return new Answer(405, GithubSimulator.message("Pull Request is not mergeable"));
    }
    if (body.has("sha") && !body.get("sha").asString().equals(head)) {
      return new Answer(
          409,
          GithubSimulator.message("Head branch was modified. Review and try the merge again."));
    }
    String how = body.path("merge_method").asString("merge");
    if (repo.disabledMergeMethods.contains(how)) {
      String name = how.equals("merge") ? "Merge commits" : capitalized(how) + " merges";
      return new Answer(
          405, GithubSimulator.message(name + " are not allowed on this repository."));
    }
    String base = repo.head(pr.base).orElseThrow();
    int races = repo.pendingRaces.getOrDefault(pr.base, 0);
    if (races > 0) {
      repo.pendingRaces.put(pr.base, races - 1);
      Runnable meanwhile = repo.duringRace;
      repo.duringRace = null;
      if (meanwhile != null) {
        meanwhile.run();
      }
      return new Answer(
          405,
          GithubSimulator.message("Base branch was modified. Review and try the merge again."));
    }
    if (repo.branchRules.getOrDefault(pr.base, Map.of()).containsKey("merge_queue")) {
      return new Answer(
          405,
          GithubSimulator.message(
              "Repository rule violations found\n\nChanges must be made through the merge"
                  + " queue"));
    }
    if (repo.upToDate.contains(pr.base) && !repo.contains(head, base)) {
      return new Answer(
          405,
          GithubSimulator.message("Head branch is out of date. Review and try the merge again."));
    }
    if (how.equals("rebase")
        && repo.branchRules.getOrDefault(pr.base, Map.of()).containsKey("required_signatures")) {
      // GitHub does not sign the commits a rebase merge makes; it signs a squash's commit
      return new Answer(
          405,
          GithubSimulator.message(
              "Repository rule violations found\n\nCommits must have verified signatures."));
    }
    if (how.equals("rebase") && !rebaseable(base, head)) {
      // GitHub's "This branch cannot be rebased safely": replaying the commits (merge commits are
      // dropped) would give another result than a regular merge
      return new Answer(405, GithubSimulator.message("This branch can't be rebased"));
    }
    Optional<String> landed = land(pr, base, head, how);
    if (landed.isEmpty() || pr.blockedBy != null) {
      return new Answer(405, GithubSimulator.message("Pull Request is not mergeable"));
    }
    pr.mergedAs = landed.get();
    moved("refs/heads/" + pr.base, base, landed.get());
    repo.pendingRaces.put(pr.base, repo.racesPerMerge);
    ObjectNode answer = Json.mapper().createObjectNode();
    answer.put("sha", landed.get());
    answer.put("merged", true);
    answer.put("message", "Pull Request successfully merged");
    return new Answer(200, answer);
  }

  private static String capitalized(String word) {
    return Character.toUpperCase(word.charAt(0)) + word.substring(1);
  }

  /**
   * GitHub's merge of {@code pr}: a rebase replays its commits; a squash and a merge commit take
   * {@code commit_title} and {@code commit_message} (blank: none), else GitHub's own.
   */
  private Optional<String> land(PullRequest pr, String base, String head, String how) {
    if (how.equals("rebase")) {
      return rebased(base, head);
    }
    boolean squash = how.equals("squash");
    String title =
        body.path("commit_title")
            .asString(
                squash
                    ? pr.title + " (#" + pr.number + ")"
                    : "Merge pull request #" + pr.number + " from " + pr.headBranch);
    String text = body.path("commit_message").asString(squash ? "" : pr.title);
    String message = text.isBlank() ? title : title + "\n\n" + text;
    return repo.mergedTree(base, head, null)
        .map(
            tree ->
                squash ? repo.commit(tree, message, base) : repo.commit(tree, message, base, head));
  }

  /** {@code GET /pulls/{n}/commits}: the PR's commits not on its base, oldest first (≤ 250). */
  private Answer pullCommits(PullRequest pr) {
    String head = repo.headOf(pr);
    String base = repo.head(pr.base).orElse(head);
    ArrayNode list = Json.mapper().createArrayNode();
    ObjectNode template =
        (ObjectNode)
            github.example("GET", "/repos/" + repo.fullName + "/pulls/1/commits", 200).get(0);
    for (RevCommit c : repo.ownCommits(base, head).stream().limit(250).toList()) {
      ObjectNode item = template.deepCopy();
      item.put("sha", c.name());
      ObjectNode commit = (ObjectNode) item.get("commit");
      commit.put("message", c.getFullMessage());
      ((ObjectNode) commit.get("author"))
          .put("name", c.getAuthorIdent().getName())
          .put("email", c.getAuthorIdent().getEmailAddress());
      // the GitHub account of the commit's email: here every author's login is their name
      ((ObjectNode) item.get("author")).put("login", c.getAuthorIdent().getName());
      list.add(item);
    }
    return new Answer(200, list);
  }

  /** A branch moved: a push, and every open PR onto it whose head it now holds is merged. */
  private void moved(String ref, String before, String after) {
    repo.setRef(ref, after);
    github.webhooks().push(repo, ref, before, after);
    if (!ref.startsWith("refs/heads/")) {
      return;
    }
    String branch = ref.substring("refs/heads/".length());
    for (PullRequest pr : repo.pulls.values()) {
      if (pr.open()
          && pr.base.equals(branch)
          && (pr.mergedAs != null || repo.contains(after, repo.headOf(pr)))) {
        pr.open = false;
        if (pr.mergedAs == null) {
          pr.mergedAs = after;
        }
        github.webhooks().pullRequest(repo, pr, "closed", null);
      }
    }
  }

  private Answer checkRun(long id, int status) {
    CheckRun before = repo.checkRuns.stream().filter(r -> r.id() == id).findFirst().orElse(null);
    if (status == 200 && before == null) {
      return notFound();
    }
    CheckRun run =
        new CheckRun(
            id,
            body.path("name").asString(before == null ? "" : before.name()),
            body.path("head_sha").asString(before == null ? "" : before.headSha()),
            body.path("status").asString(before == null ? "queued" : before.status()),
            body.path("conclusion").isString()
                ? body.path("conclusion").asString()
                : before == null ? null : before.conclusion(),
            body.path("output").path("title").asString(before == null ? null : before.title()),
            body.path("output").path("summary").asString(before == null ? null : before.summary()),
            body.path("details_url").asString(before == null ? null : before.detailsUrl()),
            GithubSimulator.APP_ID); // the App's token made it
    repo.checkRuns.remove(before);
    repo.checkRuns.add(run);
    return new Answer(status, checkRunJson(example(status), run));
  }

  /**
   * {@code GET /commits/{ref}/check-runs}, filtered by {@code check_name} and {@code app_id}, one
   * page of {@code per_page} (GitHub: 30 by default, at most 100) with the full {@code
   * total_count}.
   */
  private Answer checkRunsOf(String ref) {
    String sha = repo.hasCommit(ref) ? ref : repo.head(ref).orElse(ref);
    String name = query("check_name");
    String app = query("app_id");
    List<CheckRun> runs =
        repo.checkRuns.stream()
            .filter(r -> r.headSha().equals(sha) && (name == null || r.name().equals(name)))
            .filter(r -> app == null || Long.toString(r.appId()).equals(app))
            .toList();
    ObjectNode answer = example(200);
    ArrayNode list = (ArrayNode) answer.get("check_runs");
    ObjectNode template = (ObjectNode) list.get(0);
    list.removeAll();
    page(runs).forEach(r -> list.add(checkRunJson(template.deepCopy(), r)));
    answer.put("total_count", runs.size());
    return new Answer(200, answer);
  }

  /**
   * {@code GET /commits/{ref}/check-suites}: one suite per App with check runs on the commit (and a
   * queued suite, without runs, for an App that has none: GitHub creates one on every push for each
   * App that may write checks).
   */
  private Answer checkSuitesOf(String ref) {
    String sha = repo.hasCommit(ref) ? ref : repo.head(ref).orElse(ref);
    java.util.Set<Long> apps = new java.util.TreeSet<>();
    apps.add(GithubSimulator.APP_ID);
    repo.checkRuns.stream().filter(r -> r.headSha().equals(sha)).forEach(r -> apps.add(r.appId()));
    ObjectNode answer = example(200);
    ArrayNode list = (ArrayNode) answer.get("check_suites");
    ObjectNode template = (ObjectNode) list.get(0);
    list.removeAll();
    for (long app : page(List.copyOf(apps))) {
      list.add(suiteJson(template.deepCopy(), repo, sha, app));
    }
    answer.put("total_count", apps.size());
    return new Answer(200, answer);
  }

  /**
   * {@code json} (a check suite of a published example) as App {@code app}'s suite on {@code sha}.
   */
  static ObjectNode suiteJson(ObjectNode json, SimulatedRepository repo, String sha, long app) {
    SimulatedRepository.SuiteState state = repo.suiteState(sha, app);
    json.put("id", sha.hashCode() * 31L + app);
    json.put("head_sha", sha);
    json.put("status", state.status());
    if (state.conclusion() == null) {
      json.putNull("conclusion");
    } else {
      json.put("conclusion", state.conclusion());
    }
    json.put("latest_check_runs_count", state.runs());
    if (json.get("app") instanceof ObjectNode owner) {
      owner.put("id", app);
      owner.put("slug", app == GithubSimulator.APP_ID ? "trainyard" : "ci-app-" + app);
      owner.put("name", app == GithubSimulator.APP_ID ? "trainyard" : "CI app " + app);
    }
    return json;
  }

  /** The items of the page {@code per_page} and {@code page} ask for, as GitHub pages lists. */
  private <T> List<T> page(List<T> items) {
    int perPage =
        Math.min(100, query("per_page") == null ? 30 : Integer.parseInt(query("per_page")));
    int page = query("page") == null ? 1 : Integer.parseInt(query("page"));
    return items.stream().skip((long) (page - 1) * perPage).limit(perPage).toList();
  }

  private static ObjectNode checkRunJson(JsonNode template, CheckRun run) {
    ObjectNode json = (ObjectNode) template;
    json.put("id", run.id());
    if (json.get("app") instanceof ObjectNode app) {
      app.put("id", run.appId());
    }
    json.put("name", run.name());
    json.put("head_sha", run.headSha());
    json.put("status", run.status());
    if (run.conclusion() == null) {
      json.putNull("conclusion");
    } else {
      json.put("conclusion", run.conclusion());
    }
    ((ObjectNode) json.get("output")).put("title", run.title());
    return json;
  }

  private Answer comments(long issue) {
    if (repo.pull(issue).isEmpty()) {
      return notFound();
    }
    if (method.equals("POST")) {
      Comment comment =
          new Comment(IDS.incrementAndGet(), issue, "trainyard[bot]", body.path("body").asString());
      repo.comments.add(comment);
      return new Answer(201, commentJson(example(201), comment));
    }
    ArrayNode list = Json.mapper().createArrayNode();
    JsonNode template = github.example("POST", path, 201);
    page(repo.comments.stream().filter(c -> c.issue() == issue).toList())
        .forEach(c -> list.add(commentJson((ObjectNode) template.deepCopy(), c)));
    return new Answer(200, list);
  }

  private static ObjectNode commentJson(ObjectNode json, Comment comment) {
    json.put("id", comment.id());
    json.put("body", comment.body());
    ((ObjectNode) json.get("user")).put("login", comment.user());
    return json;
  }

  private Answer permission(String user) {
    ObjectNode answer = example(200);
    String role = repo.permissions.getOrDefault(user, "read");
    // GitHub's legacy permission knows admin, write and read; the role says maintain or triage
    String permission =
        switch (role) {
          case "admin" -> "admin";
          case "maintain", "write" -> "write";
          default -> "read";
        };
    answer.put("permission", permission);
    answer.put("role_name", role);
    ((ObjectNode) answer.get("user")).put("login", user).put("role_name", role);
    return new Answer(200, answer);
  }

  /** {@code GET /pulls?state=&head=owner:branch&base=}: the PRs that match, as a list. */
  private Answer listPulls() {
    String state = query("state") == null ? "open" : query("state");
    String head = query("head");
    String base = query("base");
    ArrayNode list = Json.mapper().createArrayNode();
    String owner = repo.fullName.split("/")[0];
    repo.pulls.values().stream()
        .filter(pr -> state.equals("all") || (state.equals("open") == pr.open()))
        .filter(pr -> head == null || head.equals(owner + ":" + pr.headBranch))
        .filter(pr -> base == null || base.equals(pr.base))
        .forEach(
            pr -> {
              ObjectNode json = pull(pr);
              json.remove("merged"); // the list's items are pull-request-simple
              json.remove("mergeable");
              json.remove("mergeable_state");
              for (String field : SIMPLE_ONLY_NOT) {
                json.remove(field);
              }
              list.add(json);
            });
    return new Answer(200, list);
  }

  /** Fields of a full pull request that a listed one (pull-request-simple) does not have. */
  private static final List<String> SIMPLE_ONLY_NOT =
      List.of(
          "rebaseable",
          "merged_by",
          "comments",
          "review_comments",
          "maintainer_can_modify",
          "commits",
          "additions",
          "deletions",
          "changed_files");

  /**
   * The PR's own commits replayed on {@code base}, merge commits dropped (as {@code git rebase}
   * does); empty when one does not apply.
   */
  private Optional<String> rebased(String base, String head) {
    String onto = base;
    for (RevCommit own : repo.ownCommits(base, head)) {
      if (own.getParentCount() > 1) {
        continue;
      }
      String parent = own.getParentCount() == 0 ? null : own.getParent(0).name();
      Optional<ObjectId> tree = repo.mergedTree(onto, own.name(), parent);
      if (tree.isEmpty()) {
        return Optional.empty();
      }
      onto = repo.commit(tree.get(), own.getFullMessage().strip(), onto);
    }
    return Optional.of(onto);
  }

  /**
   * GitHub's {@code rebaseable}: the rebase applies and gives the tree a regular merge would (else
   * GitHub refuses it as not safe).
   */
  private boolean rebaseable(String base, String head) {
    Optional<ObjectId> merged = repo.mergedTree(base, head, null);
    Optional<String> rebased = rebased(base, head);
    return merged.isPresent()
        && rebased.isPresent()
        && repo.treeOf(rebased.get()).equals(merged.get());
  }

  /** {@code POST /pulls}: opens a PR from a branch of this repository; 422 when one is open. */
  private Answer createPull() {
    String head = body.path("head").asString("");
    String base = body.path("base").asString("");
    if (repo.head(head).isEmpty() || repo.head(base).isEmpty()) {
      return invalid("Validation Failed");
    }
    boolean exists =
        repo.pulls.values().stream()
            .anyMatch(pr -> pr.open() && pr.headBranch.equals(head) && pr.base.equals(base));
    if (exists) {
      return invalid("A pull request already exists for " + repo.fullName + ":" + head + ".");
    }
    long number = repo.open(head, base, body.path("title").asString(""), "trainyard[bot]");
    PullRequest pr = repo.pull(number).orElseThrow();
    pr.draft = body.path("draft").asBoolean(false);
    github.webhooks().pullRequest(repo, pr, "opened", null);
    return new Answer(201, pull(pr));
  }

  /** {@code PATCH /pulls/{n}}: {@code state: closed} closes it; {@code base} retargets it. */
  private Answer updatePull(PullRequest pr) {
    if (body.path("state").asString("").equals("closed") && pr.open()) {
      pr.open = false;
      github.webhooks().pullRequest(repo, pr, "closed", null);
    }
    String base = body.path("base").asString("");
    if (!base.isEmpty() && !base.equals(pr.base)) {
      if (repo.head(base).isEmpty()) {
        return new Answer(
            422, GithubSimulator.message("Proposed base branch '" + base + "' was not found"));
      }
      pr.base = base;
      github.webhooks().pullRequest(repo, pr, "edited", null);
    }
    return new Answer(200, pull(pr));
  }

  /** {@code GET} or {@code POST /issues/{n}/labels}: read, or add labels (created when new). */
  private Answer issueLabels(long issue) {
    if (repo.pull(issue).isEmpty()) {
      return notFound();
    }
    Set<String> now = new LinkedHashSet<>(repo.issueLabels.getOrDefault(issue, Set.of()));
    if (method.equals("POST")) {
      for (JsonNode name : body.path("labels")) {
        repo.labels.add(name.asString());
        now.add(name.asString());
      }
      repo.setLabels(issue, now);
    }
    return new Answer(200, labelsJson(now));
  }

  /** {@code DELETE /issues/{n}/labels/{name}}: 404 when the issue does not carry it. */
  private Answer removeLabel(long issue, String name) {
    Set<String> now = new LinkedHashSet<>(repo.issueLabels.getOrDefault(issue, Set.of()));
    if (!now.remove(name)) {
      return new Answer(404, GithubSimulator.message("Label does not exist"));
    }
    repo.setLabels(issue, now);
    return new Answer(200, labelsJson(now));
  }

  /** {@code POST /labels}: 422 {@code already_exists} for a name the repository has. */
  private Answer createLabel() {
    String name = body.path("name").asString("");
    if (!repo.labels.add(name)) {
      return invalid("Validation Failed");
    }
    ObjectNode label = example(201);
    label.put("name", name).put("color", body.path("color").asString("ededed"));
    return new Answer(201, label);
  }

  private ArrayNode labelsJson(Set<String> names) {
    ArrayNode list = Json.mapper().createArrayNode();
    ObjectNode template =
        (ObjectNode)
            github.example("GET", "/repos/" + repo.fullName + "/issues/1/labels", 200).get(0);
    names.forEach(n -> list.add(template.deepCopy().put("name", n)));
    return list;
  }

  /** {@code GET /branches/{branch}}: the branch with its classic protection's required checks. */
  private Answer branch(String name) {
    Optional<String> head = repo.head(name);
    if (head.isEmpty()) {
      return new Answer(404, GithubSimulator.message("Branch not found"));
    }
    List<String> required = repo.protection.getOrDefault(name, List.of());
    ObjectNode answer = example(200);
    answer.put("name", name);
    ((ObjectNode) answer.get("commit")).put("sha", head.get());
    answer.put("protected", !required.isEmpty());
    ObjectNode protection = (ObjectNode) answer.get("protection");
    protection.put("enabled", !required.isEmpty());
    ObjectNode checks = (ObjectNode) protection.get("required_status_checks");
    checks.put("enforcement_level", required.isEmpty() ? "off" : "non_admins");
    ArrayNode contexts = checks.putArray("contexts");
    ArrayNode list = checks.putArray("checks");
    for (String context : required) {
      contexts.add(context);
      list.addObject().put("context", context).putNull("app_id");
    }
    return new Answer(200, answer);
  }

  /**
   * {@code GET /branches/{branch}/protection/required_status_checks}: classic protection's required
   * checks with its {@code strict} flag, which GitHub shows only to an App with administration
   * access (else 403, "Resource not accessible by integration").
   */
  private Answer classicChecks(String name) {
    if (!repo.administrationRead) {
      return new Answer(403, GithubSimulator.message("Resource not accessible by integration"));
    }
    List<String> required = repo.protection.getOrDefault(name, List.of());
    if (required.isEmpty()) {
      return new Answer(404, GithubSimulator.message("Required status checks not enabled"));
    }
    ObjectNode answer = example(200);
    answer.put("strict", repo.upToDate.contains(name));
    ArrayNode contexts = answer.putArray("contexts");
    ArrayNode checks = answer.putArray("checks");
    for (String context : required) {
      contexts.add(context);
      checks.addObject().put("context", context).putNull("app_id");
    }
    return new Answer(200, answer);
  }

  /**
   * {@code GET /rules/branches/{branch}}: every active rule for the branch; a ruleset that requires
   * checks also forbids force pushes, as most do.
   */
  private Answer rules(String name) {
    ArrayNode rules = Json.mapper().createArrayNode();
    for (int i = 0; i < repo.otherRules.getOrDefault(name, 0); i++) {
      // other rulesets' rules come first, so the checks below are on a later page
      rule(rules, "deletion").put("ruleset_id", 1000 + i);
    }
    List<String> required = repo.rulesets.getOrDefault(name, List.of());
    if (!required.isEmpty()) {
      ObjectNode checks = rule(rules, "required_status_checks");
      ObjectNode parameters = checks.putObject("parameters");
      parameters.put("strict_required_status_checks_policy", repo.upToDate.contains(name));
      ArrayNode list = parameters.putArray("required_status_checks");
      Map<String, Long> bound = repo.rulesetApps.getOrDefault(name, Map.of());
      required.forEach(
          context -> {
            ObjectNode check = list.addObject().put("context", context);
            if (bound.containsKey(context)) {
              check.put("integration_id", bound.get(context));
            }
          });
      rule(rules, "non_fast_forward");
    }
    repo.branchRules
        .getOrDefault(name, Map.of())
        .forEach(
            (type, parameters) -> {
              ObjectNode rule = rule(rules, type);
              if (!parameters.isEmpty()) {
                rule.set("parameters", Json.mapper().valueToTree(parameters));
              }
            });
    // paged as GitHub pages it: 30 rules unless per_page says otherwise
    ArrayNode page = Json.mapper().createArrayNode();
    page(java.util.stream.StreamSupport.stream(rules.spliterator(), false).toList())
        .forEach(page::add);
    return new Answer(200, page);
  }

  private ObjectNode rule(ArrayNode rules, String type) {
    return rules
        .addObject()
        .put("type", type)
        .put("ruleset_source_type", "Repository")
        .put("ruleset_source", repo.fullName)
        .put("ruleset_id", 42);
  }

  /** {@code GET /commits/{ref}/status}: the newest status of each context on the commit. */
  /**
   * {@code GET /commits/{ref}/statuses}: every status of the commit, newest first, each with the
   * account that made it ({@code creator}: a person, or an App's Bot, {@code <slug>[bot]}).
   */
  private Answer statuses(String ref) {
    String sha = repo.hasCommit(ref) ? ref : repo.head(ref).orElse(ref);
    ArrayNode example = (ArrayNode) (JsonNode) github.example(method, path, 200);
    ObjectNode template = (ObjectNode) example.get(0);
    List<SimulatedRepository.CommitStatus> all =
        new java.util.ArrayList<>(repo.statuses.getOrDefault(sha, List.of()));
    java.util.Collections.reverse(all);
    ArrayNode list = Json.mapper().createArrayNode();
    for (SimulatedRepository.CommitStatus status : page(all)) {
      ObjectNode item =
          template
              .deepCopy()
              .put("context", status.context())
              .put("state", status.state())
              .put("description", status.context());
      ObjectNode creator = (ObjectNode) item.get("creator");
      if (status.app() == null) {
        creator.put("login", "ci-user").put("type", "User");
      } else {
        creator
            .put("login", status.app() + "[bot]")
            .put("type", "Bot")
            .put("id", github.appId(status.app()));
      }
      list.add(item);
    }
    return new Answer(200, list);
  }

  private Answer combinedStatus(String ref) {
    String sha = repo.hasCommit(ref) ? ref : repo.head(ref).orElse(ref);
    ObjectNode answer = example(200);
    ArrayNode list = (ArrayNode) answer.get("statuses");
    ObjectNode template = (ObjectNode) list.get(0);
    list.removeAll();
    java.util.Map<String, String> newest = new java.util.LinkedHashMap<>();
    repo.statuses
        .getOrDefault(sha, List.of())
        .forEach(status -> newest.put(status.context(), status.state()));
    page(List.copyOf(newest.entrySet()))
        .forEach(
            e ->
                list.add(
                    template
                        .deepCopy()
                        .put("context", e.getKey())
                        .put("state", e.getValue())
                        .put("description", e.getKey())));
    answer.put("sha", sha);
    answer.put("total_count", newest.size());
    answer.put(
        "state",
        newest.containsValue("failure")
            ? "failure"
            : newest.containsValue("pending") || newest.isEmpty() ? "pending" : "success");
    return new Answer(200, answer);
  }

  /** The PR as {@code GET /pulls/{n}} shows it, mergeability included. */
  ObjectNode pull(PullRequest pr) {
    String head = repo.headOf(pr);
    String base = repo.head(pr.base).orElse(head);
    boolean clean = repo.mergedTree(base, head, null).isPresent();
    ObjectNode json =
        (ObjectNode) github.example("GET", "/repos/" + repo.fullName + "/pulls/1", 200);
    json.put("number", pr.number);
    json.putArray("requested_teams"); // GitHub's example has teams its own schema refuses
    json.put("state", pr.open() ? "open" : "closed");
    json.put("title", pr.title);
    if (pr.body == null) {
      json.putNull("body");
    } else {
      json.put("body", pr.body);
    }
    json.put("draft", pr.draft);
    json.put("merged", pr.merged());
    if (pr.merged()) {
      json.put("merge_commit_sha", pr.mergedAs);
    } else {
      json.putNull("merge_commit_sha");
      json.putNull("merged_at");
    }
    json.put("mergeable", clean);
    if (pr.open()) {
      json.put("rebaseable", clean && rebaseable(base, head));
    }
    json.put(
        "mergeable_state",
        !clean ? "dirty" : pr.draft ? "draft" : pr.blockedBy != null ? "blocked" : "clean");
    ((ObjectNode) json.get("user")).put("login", pr.user);
    ((ObjectNode) json.get("head")).put("ref", pr.headBranch).put("sha", head);
    ((ObjectNode) json.get("base")).put("ref", pr.base).put("sha", base);
    return json;
  }

  private ObjectNode ref(String ref, String sha) {
    ObjectNode answer =
        (ObjectNode) github.example("GET", "/repos/" + repo.fullName + "/git/ref/heads/x", 200);
    answer.put("ref", ref);
    String path =
        ref.startsWith("refs/heads/")
            ? "refs/" + GithubScm.heads(ref.substring("refs/heads/".length()))
            : ref;
    answer.put("url", github.api() + "/repos/" + repo.fullName + "/git/" + path);
    ((ObjectNode) answer.get("object")).put("sha", sha);
    return answer;
  }

  /** A ref path as GitHub reads it: each segment percent-decoded. */
  private static String decoded(String refPath) {
    return java.net.URLDecoder.decode(
        refPath.replace("+", "%2B"), java.nio.charset.StandardCharsets.UTF_8);
  }

  private String resolve(String headOrBranch) {
    if (repo.hasCommit(headOrBranch)) {
      return headOrBranch;
    }
    return repo.head(headOrBranch).orElse(null);
  }

  private String query(String name) {
    String raw = path.contains("?") ? path.substring(path.indexOf('?') + 1) : "";
    for (String pair : raw.split("&")) {
      if (pair.startsWith(name + "=")) {
        return java.net.URLDecoder.decode(
            pair.substring(name.length() + 1), java.nio.charset.StandardCharsets.UTF_8);
      }
    }
    return null;
  }

  /** {@code GET /compare/{base}...{head}}: how {@code head} stands to {@code base}. */
  private Answer compare(String basehead) {
    String[] ends = basehead.split("\\.\\.\\.", 2);
    if (ends.length != 2) {
      return notFound();
    }
    boolean ahead;
    boolean behind;
    try {
      ahead = repo.contains(ends[1], ends[0]);
      behind = repo.contains(ends[0], ends[1]);
    } catch (RuntimeException unknownCommit) {
      return notFound();
    }
    ObjectNode comparison = example(200);
    comparison.put(
        "status",
        ends[0].equals(ends[1]) ? "identical" : ahead ? "ahead" : behind ? "behind" : "diverged");
    return new Answer(200, comparison);
  }

  private ObjectNode example(int status) {
    return (ObjectNode) github.example(method, path, status);
  }

  private Answer notFound() {
    return new Answer(404, GithubSimulator.message("Not Found"));
  }

  private static Answer invalid(String why) {
    return new Answer(422, GithubSimulator.message(why));
  }
}

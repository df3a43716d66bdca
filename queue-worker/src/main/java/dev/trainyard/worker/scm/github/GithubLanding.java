package dev.trainyard.worker.scm.github;

import dev.trainyard.common.github.GithubClient.Answer;
import dev.trainyard.common.github.GithubClient.Sleeper;
import dev.trainyard.common.github.LandingRules;
import dev.trainyard.common.queue.MergeMethod;
import dev.trainyard.common.queue.OrgRepo;
import dev.trainyard.worker.scm.CommitMessages;
import dev.trainyard.worker.scm.MergeResult;
import dev.trainyard.worker.scm.PullRequestHead;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * Lands a tested run on GitHub (API.md §6): {@code merge_commit} moves the target ref forward to
 * the tested commit (never forced); {@code squash} and {@code rebase} merge each tested head with
 * GitHub's pull-request merge, in the run's order, and only while the target still has the tree the
 * run was built on.
 *
 * <p>A batch is one merge call per PR, so it can stop midway. After each merge GitHub recomputes
 * the next PR's mergeability and may answer 405 "Base branch was modified" meanwhile: a race
 * trainyard's own merge caused, tried again after a backoff ({@link #RACE_ATTEMPTS} attempts, as
 * GitHub's own CLI does). Any other refusal after a PR merged is a {@link
 * MergeResult.PartlyMerged}: what GitHub merged stays merged, and the rest are tested again. A
 * landing asked for again after it stopped midway (a worker that stopped after some merges)
 * continues where GitHub shows it stopped, as long as the target holds nothing but those merges.
 */
final class GithubLanding {
  private static final Logger log = LoggerFactory.getLogger(GithubLanding.class);

  /** Merge calls per PR while GitHub answers "Base branch was modified". */
  static final int RACE_ATTEMPTS = 4;

  /** The wait before the second attempt; it doubles for each one after. */
  static final Duration RACE_BACKOFF = Duration.ofMillis(500);

  static final String CANNOT_REBASE =
      "GitHub cannot rebase it safely: replaying its commits would give another result than the"
          + " merge CI tested (its branch has a merge commit); land it with merge_commit or squash,"
          + " or rebase the branch without merge commits";

  static final String STRICT =
      "the branch requires pull requests to be up to date before merging (strict required status"
          + " checks), so GitHub refuses a head that does not contain the target's head: every PR"
          + " of a squash or rebase batch after the first, and any PR tested on a target that"
          + " moved since its branch was made. Land by merge_commit, which moves the target to the"
          + " tested commit, or drop the requirement";

  private final RepositoryCalls github;
  private final ReviewDecisions reviews;
  private final Sleeper sleeper;

  GithubLanding(RepositoryCalls github, ReviewDecisions reviews, Sleeper sleeper) {
    this.github = github;
    this.reviews = reviews;
    this.sleeper = sleeper;
  }

  /**
   * A PR GitHub holds now for a review (changes requested since it was tested, an approval gone):
   * read again at landing, since a landing by a bypass actor (the ref update of {@code
   * merge_commit}) skips every rule of the branch. Empty when none is held; fails (the landing is
   * tried again) when GitHub cannot be asked.
   */
  private Optional<MergeResult> held(OrgRepo repo, List<PullRequestHead> prs) {
    Map<Long, String> decisions =
        reviews.beforeLanding(repo, prs.stream().map(PullRequestHead::number).toList());
    for (PullRequestHead pr : prs) {
      String why = ReviewDecisions.blocking(decisions.get(pr.number()));
      if (why != null) {
        return Optional.of(new MergeResult.Held(pr.number(), why));
      }
    }
    return Optional.empty();
  }

  MergeResult merge(
      OrgRepo repo,
      String targetBranch,
      String expectedTargetSha,
      String builtOnSha,
      String testedSha,
      MergeMethod method,
      List<PullRequestHead> prs,
      CommitMessages messages) {
    Optional<String> head = github.branchHead(repo, targetBranch);
    if (head.isEmpty()) {
      return new MergeResult.TargetMoved(null);
    }
    if (method == MergeMethod.MERGE_COMMIT && expectedTargetSha.equals(builtOnSha)) {
      return moveRef(repo, targetBranch, expectedTargetSha, testedSha, head.get(), prs);
    }
    List<JsonNode> read = new ArrayList<>();
    for (PullRequestHead pr : prs) {
      Answer answer = github.call(repo, "GET", "/pulls/" + pr.number(), null, 200, 404);
      read.add(answer.status() == 200 ? answer.body() : null);
    }
    List<Long> done = ours(repo, expectedTargetSha, method, prs, read);
    if (!head.get().equals(expectedTargetSha)) {
      return resumed(head.get(), testedSha, prs, read, done)
          .orElseGet(
              () ->
                  landPulls(
                      repo,
                      targetBranch,
                      testedSha,
                      new Landed(method, messages, read),
                      prs,
                      done,
                      head.get()));
    }
    if (!done.isEmpty() || !tree(repo, expectedTargetSha).equals(tree(repo, builtOnSha))) {
      return new MergeResult.TargetMoved(expectedTargetSha); // not what was tested: rebuild
    }
    Optional<MergeResult> held = held(repo, prs);
    if (held.isPresent()) {
      return held.get();
    }
    if (method == MergeMethod.REBASE) {
      for (int i = 0; i < prs.size(); i++) {
        JsonNode pr = read.get(i);
        if (pr != null && pr.path("rebaseable").isBoolean() && !pr.path("rebaseable").asBoolean()) {
          return new MergeResult.TreeDiffers(prs.get(i).number(), CANNOT_REBASE);
        }
      }
    }
    return landPulls(
        repo, targetBranch, testedSha, new Landed(method, messages, read), prs, done, head.get());
  }

  /**
   * How a landing's PRs are merged: by {@code method}, each commit's message from {@code messages}
   * with what {@code read} holds of its PR ({@code GET /pulls/{n}}, null where GitHub had none).
   */
  private record Landed(MergeMethod method, CommitMessages messages, List<JsonNode> read) {}

  /**
   * A stacked PR (based on the head branch of the PR below it, which landed before it) retargeted
   * onto the target right before it lands ({@code PATCH /pulls/{n}} {@code base}): GitHub merges a
   * PR into its base, and shows it merged only once that base holds it. {@code pull}: the PR as
   * GitHub showed it this landing (null: not read), which says whether it still needs it. A 422 (a
   * PR closed or merged meanwhile) changes nothing here: the landing goes on and GitHub's answer to
   * the merge says what is wrong.
   */
  private void retarget(OrgRepo repo, String targetBranch, PullRequestHead pr, JsonNode pull) {
    boolean stacked = pr.baseBranch() != null && !pr.baseBranch().equals(targetBranch);
    boolean needed =
        pull == null
            ? stacked
            : pull.path("state").asString("").equals("open")
                && !pull.path("base").path("ref").asString(targetBranch).equals(targetBranch);
    if (!stacked || !needed) {
      return;
    }
    Answer answer =
        github.call(repo, "PATCH", "/pulls/" + pr.number(), Map.of("base", targetBranch), 200, 422);
    log.info(
        "{}: #{} retargeted from {} onto {} as it lands: HTTP {}",
        repo.repo().slug(),
        pr.number(),
        pr.baseBranch(),
        targetBranch,
        answer.status());
  }

  /**
   * The answer for a target that moved since the run was built: landed already (the tested commit,
   * or every PR merged by this landing), moved by someone else (nothing of the run merged by it),
   * moved by someone else after part of the run merged, or empty: it holds exactly this landing's
   * merges of the run's first PRs, so landing continues with the rest.
   */
  private static Optional<MergeResult> resumed(
      String head,
      String testedSha,
      List<PullRequestHead> prs,
      List<JsonNode> read,
      List<Long> done) {
    if (head.equals(testedSha)) {
      return Optional.of(new MergeResult.Merged(head));
    }
    if (done.isEmpty()) {
      return Optional.of(new MergeResult.TargetMoved(head));
    }
    String last = read.get(done.size() - 1).path("merge_commit_sha").asString("");
    if (done.size() == prs.size()) {
      return Optional.of(new MergeResult.Merged(last)); // someone may have pushed since
    }
    if (!head.equals(last)) {
      return Optional.of(
          new MergeResult.PartlyMerged(
              done,
              head,
              prs.get(done.size()).number(),
              "someone else moved the target branch after GitHub merged them"));
    }
    log.info("{} of the run merged before; landing continues with the rest", done);
    return Optional.empty();
  }

  /**
   * The run's first PRs GitHub merged the way this landing merges them, up to the first it did not:
   * each merged at its tested head, each merge's commit built on the one before (the first on the
   * target the run expected). A PR a person merged at another head, or onto another commit, ends
   * them: what follows it is not this landing's to continue. For {@code rebase}, whose commits are
   * several per PR, GitHub's compare must show the merge ahead of the commit before.
   */
  private List<Long> ours(
      OrgRepo repo,
      String expectedTargetSha,
      MergeMethod method,
      List<PullRequestHead> prs,
      List<JsonNode> read) {
    List<Long> done = new ArrayList<>();
    String before = expectedTargetSha;
    for (int i = 0; i < prs.size(); i++) {
      JsonNode pr = read.get(i);
      if (pr == null
          || !pr.path("merged").asBoolean(false)
          || !pr.path("head").path("sha").asString("").equals(prs.get(i).sha())) {
        break;
      }
      String merge = pr.path("merge_commit_sha").asString("");
      if (!builtOn(repo, merge, before, method)) {
        break;
      }
      done.add(prs.get(i).number());
      before = merge;
    }
    return done;
  }

  /** Whether GitHub's merge commit {@code merge} was made on {@code before}. */
  private boolean builtOn(OrgRepo repo, String merge, String before, MergeMethod method) {
    if (method == MergeMethod.REBASE) {
      Answer compared =
          github.call(repo, "GET", "/compare/" + before + "..." + merge, null, 200, 404);
      return compared.status() == 200
          && compared.body().path("status").asString("").equals("ahead");
    }
    Answer commit = github.call(repo, "GET", "/git/commits/" + merge, null, 200, 404);
    return commit.status() == 200
        && commit.body().path("parents").path(0).path("sha").asString("").equals(before);
  }

  private MergeResult landPulls(
      OrgRepo repo,
      String targetBranch,
      String testedSha,
      Landed landing,
      List<PullRequestHead> prs,
      List<Long> before,
      String head) {
    MergeMethod method = landing.method();
    List<Long> done = new ArrayList<>(before);
    String at = head; // where this landing left the target
    for (int i = done.size(); i < prs.size(); i++) {
      PullRequestHead pr = prs.get(i);
      JsonNode pull = landing.read().get(i);
      String message =
          landing
              .messages()
              .render(
                  repo,
                  targetBranch,
                  pr,
                  () -> PullRequestTexts.read(github, repo, pr.number(), pull));
      retarget(repo, targetBranch, pr, pull);
      Answer answer = mergePull(repo, targetBranch, at, pr, method, message);
      if (answer.status() != 200) {
        MergeResult refused = refusedMerge(repo, targetBranch, pr, answer);
        if (done.isEmpty()) {
          return refused;
        }
        return new MergeResult.PartlyMerged(
            done,
            github.branchHead(repo, targetBranch).orElse(head),
            pr.number(),
            words(pr, refused));
      }
      done.add(pr.number());
      at = answer.body().path("sha").asString(at);
    }
    Optional<String> landed = github.branchHead(repo, targetBranch);
    if (landed.isPresent() && !tree(repo, landed.get()).equals(tree(repo, testedSha))) {
      // GitHub made the commits; what it made is on the target and cannot be taken back here
      log.error(
          "GitHub landed {} on {} of {} by {} with a tree other than the tested {}'s; the"
              + " difference is on the target branch",
          prs.stream().map(p -> "#" + p.number()).toList(),
          targetBranch,
          repo.repo().slug(),
          method,
          testedSha);
    }
    return landed
        .<MergeResult>map(MergeResult.Merged::new)
        .orElseGet(() -> new MergeResult.TargetMoved(null));
  }

  /**
   * {@code PUT /pulls/{n}/merge} with the tested head, tried again after a backoff while GitHub
   * answers "Base branch was modified" (at most {@link #RACE_ATTEMPTS} calls) and the target is
   * still at {@code at}, where this landing left it: the race is GitHub's own after trainyard's
   * merge. A target someone else moved is not merged onto (the merge endpoint takes no base).
   */
  private Answer mergePull(
      OrgRepo repo,
      String targetBranch,
      String at,
      PullRequestHead pr,
      MergeMethod method,
      String message) {
    int blank = message.indexOf("\n\n");
    String title = blank < 0 ? message : message.substring(0, blank);
    String text = blank < 0 ? "" : message.substring(blank + 2);
    Duration wait = RACE_BACKOFF;
    for (int attempt = 1; ; attempt++) {
      Answer answer =
          github.call(
              repo,
              "PUT",
              "/pulls/" + pr.number() + "/merge",
              Map.of(
                  "sha",
                  pr.sha(),
                  "merge_method",
                  LandingRules.endpointMethod(method),
                  "commit_title",
                  title,
                  "commit_message",
                  text),
              200,
              405,
              409);
      if (attempt == RACE_ATTEMPTS
          || !baseModified(answer)
          || !github.branchHead(repo, targetBranch).filter(at::equals).isPresent()) {
        return answer;
      }
      log.info(
          "{}: GitHub answered \"{}\" for #{}; trying again in {} ms",
          repo.repo().slug(),
          answer.message(),
          pr.number(),
          wait.toMillis());
      try {
        sleeper.sleep(wait);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return answer;
      }
      wait = wait.multipliedBy(2);
    }
  }

  private static boolean baseModified(Answer answer) {
    return answer.status() == 405
        && answer.message().toLowerCase(Locale.ROOT).contains("base branch was modified");
  }

  /** What stopped a batch midway at {@code pr}, in a sentence. */
  private static String words(PullRequestHead pr, MergeResult refused) {
    if (refused instanceof MergeResult.Refused r) {
      return r.message();
    } else if (refused instanceof MergeResult.TreeDiffers d) {
      return d.why();
    } else if (refused instanceof MergeResult.HeadModified) {
      return "its head was pushed to after it was tested";
    } else if (refused instanceof MergeResult.Conflict) {
      return "GitHub shows it conflicting with the target now";
    }
    return "GitHub still answered \"Base branch was modified\" after "
        + RACE_ATTEMPTS
        + " attempts";
  }

  /**
   * Why GitHub's merge endpoint refused PR {@code pr}, read from its answer: the base moved ("Base
   * branch was modified", still after the retries) → rebuild on the target's new head; the head
   * moved (409, "Head branch was modified") → read the PR again; a real conflict (GitHub shows the
   * PR not mergeable) → the PR conflicts; anything else (a merge method the repository disables,
   * approvals missing, strict checks wanting the branch up to date) is the host's refusal, in its
   * words.
   */
  private MergeResult refusedMerge(
      OrgRepo repo, String targetBranch, PullRequestHead pr, Answer answer) {
    String message = answer.message();
    String lower = message.toLowerCase(Locale.ROOT);
    if (lower.contains("base branch was modified")) {
      return new MergeResult.TargetMoved(github.branchHead(repo, targetBranch).orElse(null));
    }
    if (answer.status() == 409 || lower.contains("head branch was modified")) {
      return new MergeResult.HeadModified(pr.number());
    }
    if (lower.contains("can't be rebased") || lower.contains("cannot be rebased")) {
      return new MergeResult.TreeDiffers(pr.number(), CANNOT_REBASE);
    }
    Answer now = github.call(repo, "GET", "/pulls/" + pr.number(), null, 200, 404);
    if (now.status() == 200
        && now.body().path("mergeable").isBoolean()
        && !now.body().path("mergeable").asBoolean()) {
      return new MergeResult.Conflict(pr.number());
    }
    return new MergeResult.Refused(
        "GitHub refused to merge #"
            + pr.number()
            + " (HTTP "
            + answer.status()
            + "): "
            + message
            + (now.status() == 200
                ? " (mergeable_state: " + now.body().path("mergeable_state").asString("?") + ")"
                : "")
            + (lower.contains("head branch is out of date") ? ": " + STRICT : ""));
  }

  /**
   * {@code merge_commit} on the commit the run was built on: the target moves forward to the tested
   * commit when it is still there; a target that moved since is the run's own earlier landing or
   * someone else's.
   */
  private MergeResult moveRef(
      OrgRepo repo,
      String targetBranch,
      String expectedTargetSha,
      String testedSha,
      String head,
      List<PullRequestHead> prs) {
    if (!head.equals(expectedTargetSha)) {
      return landed(repo, head, testedSha, prs)
          ? new MergeResult.Merged(head)
          : new MergeResult.TargetMoved(head);
    }
    Optional<MergeResult> held = held(repo, prs);
    if (held.isPresent()) {
      return held.get();
    }
    prs.forEach(pr -> retarget(repo, targetBranch, pr, null));
    Answer moved =
        github.call(
            repo,
            "PATCH",
            "/git/refs/" + GithubScm.heads(targetBranch),
            Map.of("sha", testedSha, "force", false),
            200,
            422);
    if (moved.status() == 200) {
      return new MergeResult.Merged(testedSha);
    }
    Optional<String> now = github.branchHead(repo, targetBranch);
    if (now.isPresent() && now.get().equals(testedSha)) {
      return new MergeResult.Merged(testedSha);
    }
    if (now.isPresent() && now.get().equals(expectedTargetSha)) {
      // the target did not move: GitHub refused the update itself (protection without a bypass
      // for the App, linear history, signed commits, its own merge queue required)
      return new MergeResult.Refused(
          "GitHub refused to move "
              + targetBranch
              + " to the tested commit (HTTP 422): "
              + moved.message());
    }
    return new MergeResult.TargetMoved(now.orElse(null));
  }

  /**
   * Whether an earlier attempt already landed the run with {@code head} on the target: the tested
   * commit itself, or its last PR merged as {@code head}.
   */
  boolean landed(OrgRepo repo, String head, String testedSha, List<PullRequestHead> prs) {
    if (head.equals(testedSha)) {
      return true;
    }
    if (prs.isEmpty()) {
      return false;
    }
    Answer last =
        github.call(repo, "GET", "/pulls/" + prs.get(prs.size() - 1).number(), null, 200, 404);
    return last.status() == 200
        && last.body().path("merged").asBoolean(false)
        && head.equals(last.body().path("merge_commit_sha").asString());
  }

  private String tree(OrgRepo repo, String sha) {
    return github
        .call(repo, "GET", "/git/commits/" + sha, null, 200)
        .body()
        .path("tree")
        .path("sha")
        .asString();
  }
}

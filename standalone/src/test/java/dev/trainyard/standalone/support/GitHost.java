package dev.trainyard.standalone.support;

import static dev.trainyard.worker.scm.git.BareRepo.files;

import dev.trainyard.worker.scm.git.BareRepo;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.revwalk.RevCommit;

/**
 * A plain git server for the tests: one bare repository under the git root with {@code main} and
 * pull requests as {@code refs/pull/<n>/head}, each a commit on the main of its creation; a push
 * calls {@code /v1/scm/git/notify} as a post-receive hook would.
 */
public final class GitHost implements AutoCloseable {
  private final BareRepo repo;
  private final Api api;
  private final String name;

  /**
   * Repository {@code github.com/acme/<name>} of organization {@code org} under {@code gitRoot}.
   */
  public GitHost(Path gitRoot, String org, Api api, String name) throws IOException {
    this.repo = new BareRepo(location(gitRoot, org, name));
    this.api = api;
    this.name = name;
    repo.setRef(
        "refs/heads/main",
        repo.commit(null, files("README", "hello\n"), "Initial commit", "carol"));
  }

  /**
   * Where the git adapter looks for organization {@code org}'s {@code github.com/acme/<name>}:
   * {@code <git root>/<org>/github.com/acme/<name>.git}.
   */
  public static Path location(Path gitRoot, String org, String name) {
    return gitRoot.resolve(org).resolve("github.com/acme/" + name + ".git");
  }

  /** A fresh, empty git root for a stack's {@code trainyard.git.root}. */
  public static Path newRoot() {
    try {
      return java.nio.file.Files.createTempDirectory("trainyard-git-");
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  public BareRepo repo() {
    return repo;
  }

  public ObjectId main() throws IOException {
    return repo.head("main");
  }

  /** Opens PR {@code number}: main's files plus {@code changes}, by {@code author}. */
  public ObjectId openPr(long number, String title, String author, String... changes)
      throws IOException {
    ObjectId head = commitOnMain(title, author, changes);
    repo.setRef("refs/pull/" + number + "/head", head);
    notifyPush();
    return head;
  }

  /**
   * Opens PR {@code number} stacked on PR {@code on}: a commit on {@code on}'s head adding {@code
   * changes}, its base the symbolic ref {@code refs/pull/<number>/base} → {@code
   * refs/pull/<on>/head}.
   */
  public ObjectId openStackedPr(
      long number, long on, String title, String author, String... changes) throws IOException {
    ObjectId below = repo.refs("refs/pull/" + on + "/head").values().iterator().next();
    Map<String, String> tree = new TreeMap<>(repo.tree(below));
    tree.putAll(files(changes));
    ObjectId head = repo.commit(below, tree, title, author);
    repo.setRef("refs/pull/" + number + "/head", head);
    repo.setSymbolicRef("refs/pull/" + number + "/base", "refs/pull/" + on + "/head");
    notifyPush();
    return head;
  }

  /** Pushes a new commit onto PR {@code number}. */
  public ObjectId pushTo(long number, String title, String... changes) throws IOException {
    ObjectId old = repo.refs("refs/pull/" + number + "/head").values().iterator().next();
    Map<String, String> tree = new TreeMap<>(repo.tree(old));
    tree.putAll(files(changes));
    ObjectId head = repo.commit(old, tree, title, "alice");
    repo.setRef("refs/pull/" + number + "/head", head);
    notifyPush();
    return head;
  }

  /** Someone pushes a commit straight onto main (a hotfix by hand), bypassing the queue. */
  public ObjectId pushToMain(String title, String... changes) throws IOException {
    ObjectId head = commitOnMain(title, "dave", changes);
    repo.setRef("refs/heads/main", head);
    notifyPush();
    return head;
  }

  /**
   * A commit on main with main's files plus {@code changes}. Main is read once: the queue may land
   * a PR meanwhile, and a commit whose files came from one main and whose parent is the next would
   * delete what landed in between.
   */
  private ObjectId commitOnMain(String title, String author, String... changes) throws IOException {
    ObjectId base = main();
    Map<String, String> tree = new TreeMap<>(repo.tree(base));
    tree.putAll(files(changes));
    return repo.commit(base, tree, title, author);
  }

  public void notifyPush() {
    String body =
        "{\"repo\":{\"host\":\"github.com\",\"owner\":\"acme\",\"name\":\"" + name + "\"}}";
    api.post("/v1/scm/git/notify", body); // a hook is best effort; polling covers a miss
  }

  /** The first-parent subjects of main, newest first, down to the initial commit. */
  public List<String> mainSubjects() throws IOException {
    return repo.history(main(), null).stream().map(RevCommit::getShortMessage).toList();
  }

  /**
   * The first-parent subjects of main after PRs 1..n, opened as "Add file <n>", landed in order as
   * merge commits: newest first, down to the initial commit.
   */
  public static List<String> landedInOrder(int n) {
    List<String> subjects = new java.util.ArrayList<>();
    for (int pr = n; pr >= 1; pr--) {
      subjects.add("Merge pull request #" + pr + ": Add file " + pr);
    }
    subjects.add("Initial commit");
    return subjects;
  }

  @Override
  public void close() {
    repo.close();
  }
}

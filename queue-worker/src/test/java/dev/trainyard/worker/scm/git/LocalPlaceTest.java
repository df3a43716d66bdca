package dev.trainyard.worker.scm.git;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.TagBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link GitPlace#update}'s rules in a real bare repository: a ref with an expected value moves
 * only from it and only forward, whether the move is proven by first parents or left to JGit's
 * walk.
 */
class LocalPlaceTest {
  @TempDir Path root;
  private BareRepo repo;
  private LocalPlace place;

  /** main: base → m1; a PR branched at base, merged into m1 by the queue: landing. */
  private ObjectId base;

  private ObjectId m1;
  private ObjectId pr;
  private ObjectId landing;

  @BeforeEach
  void repository() throws IOException {
    repo = new BareRepo(root.resolve("rocket.git"));
    base = repo.commit(null, BareRepo.files("a", "1"), "base", "ann");
    m1 = repo.commit(base, BareRepo.files("a", "2"), "m1", "ann");
    pr = repo.commit(base, BareRepo.files("a", "1", "b", "1"), "pr", "bob");
    landing = repo.commitOf(List.of(m1, pr), BareRepo.files("a", "2", "b", "1"), "merge", "q");
    repo.setRef("refs/heads/main", m1);
    place = new LocalPlace(root.resolve("rocket.git"));
  }

  @AfterEach
  void close() {
    place.close();
    repo.close();
  }

  @Test
  void aLandingOnTopOfTheTargetMovesIt() throws IOException {
    assertThat(place.update("refs/heads/main", m1, landing)).isEqualTo(GitPlace.Update.MOVED);
    assertThat(repo.head("main")).isEqualTo(landing);
  }

  @Test
  void aTargetThatMovedMeanwhileIsRefusedThoughTheLandingDescendsFromWhatWasExpected()
      throws IOException {
    ObjectId pushed = repo.commit(m1, BareRepo.files("a", "3"), "someone's push", "eve");
    repo.setRef("refs/heads/main", pushed);

    assertThat(place.update("refs/heads/main", m1, landing)).isEqualTo(GitPlace.Update.REFUSED);
    assertThat(repo.head("main")).isEqualTo(pushed);
  }

  @Test
  void aMoveThatIsNotAFastForwardIsRefused() throws IOException {
    // the PR does not contain m1: moving main there would drop m1
    assertThat(place.update("refs/heads/main", m1, pr)).isEqualTo(GitPlace.Update.REFUSED);
    assertThat(repo.head("main")).isEqualTo(m1);
  }

  @Test
  void aFastForwardOnlyBySecondParentsIsLeftToJGitsWalkAndMoves() throws IOException {
    // a PR that merged main into itself: main is its second parent, not its first
    ObjectId prWithMain =
        repo.commitOf(List.of(pr, m1), BareRepo.files("a", "2", "b", "1"), "merge main", "bob");

    assertThat(LocalPlace.firstParentDescends(repo.repository(), m1, prWithMain)).isFalse();
    assertThat(place.update("refs/heads/main", m1, prWithMain)).isEqualTo(GitPlace.Update.MOVED);
    assertThat(repo.head("main")).isEqualTo(prWithMain);
  }

  @Test
  void firstParentsProveADescendantWithinTheirBoundOnly() throws IOException {
    ObjectId tip = m1;
    for (int i = 0; i < LocalPlace.FIRST_PARENTS; i++) {
      tip = repo.commit(tip, BareRepo.files("a", "n" + i), "c" + i, "ann");
    }
    assertThat(LocalPlace.firstParentDescends(repo.repository(), m1, tip)).isTrue();
    assertThat(LocalPlace.firstParentDescends(repo.repository(), base, tip))
        .as("one past the bound: left to JGit")
        .isFalse();
    assertThat(place.update("refs/heads/main", m1, tip)).isEqualTo(GitPlace.Update.MOVED);

    repo.setRef("refs/heads/main", base);
    assertThat(place.update("refs/heads/main", base, tip))
        .as("beyond the bound, JGit's walk proves it")
        .isEqualTo(GitPlace.Update.MOVED);
    assertThat(repo.head("main")).isEqualTo(tip);
  }

  @Test
  void aTagOfADescendantIsNoCommitToPutOnABranch() throws IOException {
    ObjectId tag;
    try (ObjectInserter inserter = repo.repository().newObjectInserter()) {
      TagBuilder builder = new TagBuilder();
      builder.setObjectId(landing, Constants.OBJ_COMMIT);
      builder.setTag("v1");
      builder.setTagger(new PersonIdent("ann", "ann@example.com"));
      builder.setMessage("v1");
      tag = inserter.insert(builder);
      inserter.flush();
    }

    assertThat(LocalPlace.firstParentDescends(repo.repository(), m1, tag)).isFalse();
    assertThat(place.update("refs/heads/main", m1, tag)).isEqualTo(GitPlace.Update.REFUSED);
    assertThat(repo.head("main")).isEqualTo(m1);
  }

  @Test
  void aRefThatMustNotExistIsCreatedOnlyWhenAbsent() throws IOException {
    assertThat(place.update("refs/heads/new", ObjectId.zeroId(), m1))
        .isEqualTo(GitPlace.Update.MOVED);
    assertThat(place.update("refs/heads/new", ObjectId.zeroId(), landing))
        .isEqualTo(GitPlace.Update.REFUSED);
    assertThat(repo.head("new")).isEqualTo(m1);
  }

  @Test
  void withoutAnExpectedValueTheRefIsReplacedWhateverItHolds() throws IOException {
    assertThat(place.update("refs/heads/main", null, pr)).isEqualTo(GitPlace.Update.MOVED);
    assertThat(repo.head("main")).isEqualTo(pr);
  }
}

package dev.trainyard.common.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.command.QueueCommand.RecordPullRequestState;
import dev.trainyard.common.queue.Mergeability;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the source host shows is kept at the lengths GitHub allows, whatever a git server sends. */
class RecordPullRequestStateTest {

  private static RecordPullRequestState seen(String title, String name) {
    return new RecordPullRequestState(
        7, true, "a".repeat(40), title, name, name, name, Mergeability.MERGEABLE, null, List.of());
  }

  @Test
  void longTextsAreCutToGithubsLimitsWithAnEllipsis() {
    RecordPullRequestState seen = seen("t".repeat(10_000), "n".repeat(300));

    assertThat(seen.title()).hasSize(RecordPullRequestState.MAX_TITLE).endsWith("t…");
    assertThat(seen.author()).hasSize(RecordPullRequestState.MAX_NAME).endsWith("n…");
    assertThat(seen.baseBranch()).isEqualTo(seen.author());
    assertThat(seen.headBranch()).isEqualTo(seen.author());
  }

  @Test
  void textsWithinTheLimitsAndAbsentOnesAreKeptAsTheyAre() {
    String title = "t".repeat(RecordPullRequestState.MAX_TITLE);

    assertThat(seen(title, "main").title()).isEqualTo(title);
    assertThat(seen(title, "main").baseBranch()).isEqualTo("main");
    assertThat(RecordPullRequestState.closed(7).title()).isNull();
  }

  @Test
  void aCutNeverSplitsACharacterOutsideTheBasicPlane() {
    String title = "t".repeat(RecordPullRequestState.MAX_TITLE - 2) + "😀😀😀";

    String cut = seen(title, "main").title();

    assertThat(cut).endsWith("t…").hasSizeLessThanOrEqualTo(RecordPullRequestState.MAX_TITLE);
  }
}

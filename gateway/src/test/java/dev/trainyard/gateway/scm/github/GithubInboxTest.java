package dev.trainyard.gateway.scm.github;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.json.Json;
import org.junit.jupiter.api.Test;

/** Since when a push is one a comment's writer did not see. */
class GithubInboxTest {
  @Test
  void aCommentDeliveredLateCountsFromWhenItWasWritten() {
    var comment = Json.mapper().readTree("{\"comment\":{\"created_at\":\"2026-11-29T10:00:00Z\"}}");

    assertThat(GithubInbox.writtenBy("2026-11-29T13:00:00.000Z", comment))
        .as("redelivered three hours later")
        .isEqualTo("2026-11-29T10:00:00.000Z");
    assertThat(GithubInbox.writtenBy("2026-11-29T09:59:59.000Z", comment))
        .as("GitHub's clock ahead of ours: the earlier")
        .isEqualTo("2026-11-29T09:59:59.000Z");
    assertThat(GithubInbox.writtenBy("2026-11-29T13:00:00.000Z", Json.mapper().readTree("{}")))
        .isEqualTo("2026-11-29T13:00:00.000Z");
  }
}

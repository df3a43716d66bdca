package dev.trainyard.common.github;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.github.GithubClient.Answer;
import dev.trainyard.common.json.Json;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Only a Bot account's own slug reaches GitHub's {@code /apps/{slug}}, once a day. */
class AppIdsTest {
  private final List<String> asked = new ArrayList<>();
  private final AppIds apps =
      new AppIds(
          path -> {
            asked.add(path);
            return new Answer(200, Json.mapper().readTree("{\"id\":8329}"));
          },
          () -> Instant.parse("2026-11-29T12:00:00Z"));

  @Test
  void aBotsSlugIsAskedOnceAndNothingElseIsAskedAtAll() {
    assertThat(apps.ofBot("vercel[bot]", "Bot")).contains(8329L);
    assertThat(apps.ofBot("vercel[bot]", "Bot")).contains(8329L);
    assertThat(apps.ofBot("vercel[bot]", "User")).as("a person's login").isEmpty();
    assertThat(apps.ofBot("alice", "Bot")).isEmpty();
    for (String odd :
        List.of("../../user[bot]", "a/b[bot]", "%2e%2e[bot]", "x?y=1[bot]", "[bot]")) {
      assertThat(apps.ofBot(odd, "Bot")).as(odd).isEmpty();
    }
    assertThat(asked).containsExactly("/apps/vercel");
  }
}

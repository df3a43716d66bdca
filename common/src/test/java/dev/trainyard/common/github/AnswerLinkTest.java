package dev.trainyard.common.github;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.github.GithubClient.Answer;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.NullNode;

/** The next page of a list GitHub pages by cursor, read from its {@code Link} header. */
class AnswerLinkTest {
  @Test
  void theNextPageIsTheLinkWhoseRelationIsNext() {
    Answer answer =
        new Answer(
            200,
            NullNode.getInstance(),
            "<https://api.github.com/app/hook/deliveries?per_page=100&cursor=v1_12>; rel=\"next\","
                + " <https://api.github.com/app/hook/deliveries?per_page=100>; rel=\"first\"");

    assertThat(answer.next())
        .contains("https://api.github.com/app/hook/deliveries?per_page=100&cursor=v1_12");
    assertThat(new Answer(200, NullNode.getInstance()).next()).isEmpty();
    assertThat(new Answer(200, NullNode.getInstance(), "<https://x/a?page=1>; rel=\"prev\"").next())
        .isEmpty();
  }
}

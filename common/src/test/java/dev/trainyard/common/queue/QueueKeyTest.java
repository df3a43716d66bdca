package dev.trainyard.common.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Which queue ids {@link QueueKey#repositoryIdPattern} reaches: an event or a delivery for a
 * repository finds its organization's queues on it, under any case of owner and name, and never
 * another organization's, another host's, or a repository whose name only starts alike.
 */
class QueueKeyTest {

  @ParameterizedTest(name = "{0} (any case: {1}) → {2}")
  @CsvSource({
    "acme-org/github.com/acme/shop:main, false, true",
    "acme-org/github.com/acme/shop:release/1.2, false, true",
    "acme-org/github.com/Acme/Shop:main, false, false",
    "acme-org/github.com/Acme/Shop:main, true, true",
    // another organization, even one whose name starts alike, or in another case
    "acme-org2/github.com/acme/shop:main, true, false",
    "ACME-ORG/github.com/acme/shop:main, true, false",
    "evil/github.com/acme/shop:main, true, false",
    // another host, another repository whose name starts alike, a regex-like spelling
    "acme-org/gitlab.com/acme/shop:main, true, false",
    "acme-org/github.com/acme/shopping:main, true, false",
    "acme-org/github.com/acme/s.op:main, true, false",
  })
  void theRepositoryPatternReachesOnlyItsOrganizationsQueuesOnIt(
      String queueId, boolean anyCase, boolean reached) {
    String pattern =
        QueueKey.repositoryIdPattern(
            "acme-org", new RepoRef("github.com", "acme", "shop"), anyCase);

    assertThat(Pattern.compile(pattern).matcher(queueId).find()).isEqualTo(reached);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "s.op, acme-org/github.com/acme/shop:main",
    "sh.*, acme-org/github.com/acme/shop:main"
  })
  void aNameIsMatchedAsWrittenNotAsARegularExpression(String name, String queueId) {
    String pattern =
        QueueKey.repositoryIdPattern("acme-org", new RepoRef("github.com", "acme", name), true);

    assertThat(Pattern.compile(pattern).matcher(queueId).find()).isFalse();
  }
}

package dev.trainyard.common.net;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Names in dashboard paths: one spelling, everything but letters, digits, - _ . escaped. */
class PathSegmentsTest {

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "main | main",
        "release-1.2_x | release-1.2_x",
        "release+1 | release%2B1",
        "feature#1 | feature%231",
        "a?b | a%3Fb",
        "100% | 100%25",
        "git.local:3000 | git.local%3A3000",
        "[::1] | %5B%3A%3A1%5D",
        "naïve | na%C3%AFve",
        "'a b' | a%20b",
      })
  void escapesEveryByteOutsideTheCanonicalSet(String name, String segment) {
    assertThat(PathSegments.segment(name)).isEqualTo(segment);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "feature/x#1 | github.com/acme/app/feature/x%231",
        "a+b/c | github.com/acme/app/a%2Bb/c",
      })
  void aBranchKeepsItsSlashesAsSeparators(String branch, String path) {
    assertThat(PathSegments.path("github.com", "acme", "app", branch)).isEqualTo(path);
  }
}

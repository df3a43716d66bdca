package dev.trainyard.common.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trainyard.common.json.InvalidRequestException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RepoNamesTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "github.com",
        "git.example.org:8443",
        "127.0.0.1",
        "[::1]:22",
        "GitHub.COM",
        "a-b"
      })
  void hostsThatAreHostNamesOrAddressesAreAccepted(String host) {
    assertThat(RepoNames.host("repo.host", host)).isEqualTo(host);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "..",
        ".",
        "a/b",
        "a\\b",
        "host name",
        "évian.fr",
        "a\u0000b",
        "%2e%2e",
        "a;b",
        "",
        "~"
      })
  void hostsThatCouldBecomeOtherPathsAreRefused(String host) {
    assertThatThrownBy(() -> RepoNames.host("repo.host", host))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageStartingWith("repo.host must be");
  }

  @ParameterizedTest
  @ValueSource(strings = {"acme", "rocket.js", "my_repo", "a-b", "..a", "a..", "...", "v1.0"})
  void segmentsOfSafeCharactersAreAccepted(String segment) {
    assertThat(RepoNames.segment("repo.name", segment)).isEqualTo(segment);
  }

  @ParameterizedTest
  @ValueSource(strings = {".", "..", "a/b", "../victim", "a\\b", "a b", "a:b", "a%2fb", "ä", ""})
  void segmentsThatCouldEscapeAreRefused(String segment) {
    assertThatThrownBy(() -> RepoNames.segment("repo.owner", segment))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageStartingWith("repo.owner must be");
  }

  @ParameterizedTest
  @ValueSource(strings = {"main", "release/1.x", "feature/a-b_c", "v1.0", "Main", "a@b", "ü"})
  void branchesGitAcceptsAreAccepted(String branch) {
    assertThat(RepoNames.branch("targetBranch", branch)).isEqualTo(branch);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "-main",
        "@",
        "HEAD",
        "../../etc",
        "a/../b",
        "a..b",
        "/main",
        "main/",
        "a//b",
        "main.",
        "main.lock",
        "a/b.lock/c",
        ".hidden",
        "a/.b",
        "a@{1}",
        "a b",
        "a~1",
        "a^",
        "a:b",
        "a?",
        "a*",
        "a[b",
        "a\\b",
        "a\tb",
        "a\u007fb"
      })
  void branchesGitRefusesAreRefused(String branch) {
    assertThatThrownBy(() -> RepoNames.branch("targetBranch", branch))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageStartingWith("targetBranch must be");
  }

  @org.junit.jupiter.api.Test
  void namesLongerThanTheLimitAreRefused() {
    String longName = "a".repeat(RepoNames.MAX_LENGTH + 1);
    assertThatThrownBy(() -> RepoNames.segment("repo.name", longName))
        .hasMessageContaining("at most 255");
    assertThatThrownBy(() -> RepoNames.branch("targetBranch", longName))
        .hasMessageContaining("at most 255");
    assertThat(RepoNames.segment("repo.name", "a".repeat(RepoNames.MAX_LENGTH))).hasSize(255);
  }
}

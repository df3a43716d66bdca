package dev.trainyard.flaky.owners;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The examples of GitHub's CODEOWNERS documentation, path by path; a pattern with a slash before
 * its end ({@code docs/*}) is anchored at the root, as in gitignore.
 */
class CodeownersTest {
  private static final Codeowners FILE =
      Codeowners.parse(
          """
          # This is a comment.
          *       @global-owner1 @global-owner2
          *.js    @js-owner #This is an inline comment.
          *.go docs@example.com
          *.txt @octo-org/octocats
          /build/logs/ @doctocat
          docs/*  docs@example.com
          apps/ @octocat
          /docs/ @doctocat
          /scripts/ @doctocat @octocat
          **/logs @octocat
          /apps/ @octocat
          /apps/github
          \\#notes @hash-owner
          """);

  @ParameterizedTest(name = "{0} → {1}")
  @CsvSource({
    "README.md, @global-owner1 @global-owner2",
    "src/app.js, @js-owner",
    "cmd/main.go, docs@example.com",
    "notes/todo.txt, @octo-org/octocats",
    "build/logs/out.log, @octocat",
    "docs/getting-started.md, @doctocat",
    "docs/build-app/troubleshooting.md, @doctocat",
    "guides/docs/intro.md, @global-owner1 @global-owner2",
    "guides/docs/deep/intro.md, @global-owner1 @global-owner2",
    "src/apps/main.rb, @octocat",
    "apps/web/main.rb, @octocat",
    "apps/github/main.rb, ''",
    "scripts/deploy.sh, @doctocat @octocat",
    "deeply/nested/logs/x.log, @octocat",
    "#notes, @hash-owner"
  })
  void theLastMatchingLineWins(String path, String owners) {
    assertThat(String.join(" ", FILE.owners(path))).isEqualTo(owners);
  }
}

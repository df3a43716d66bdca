package dev.trainyard.flaky.owners;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
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

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/**/z, a/",
    "a/**/b/**/a/**/b/**/a/**/b/**/a/**/b/**/c, a/b/",
    "*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b, a",
    "**/***/****/**/x/**/**/**/y, x/"
  })
  void hostilePatternsAgainstLongPathsAnswerAtOnce(String pattern, String unit) {
    // last: a wrong match would win and answer @evil
    Codeowners hostile = Codeowners.parse("* @everyone\n" + pattern + " @evil");
    String path = unit.repeat(Codeowners.MAX_PATH / unit.length()).substring(0, 4000) + "q";

    List<String> owners =
        assertTimeoutPreemptively(Duration.ofSeconds(2), () -> hostile.owners(path));

    assertThat(owners).containsExactly("@everyone");
  }

  @Test
  void repeatedAnyDirectoriesCollapseToOne() {
    assertThat(Codeowners.segments("**/**/**/logs")).containsExactly("**", "logs", "**");
    assertThat(Codeowners.segments("/a/**/**/b***c")).containsExactly("a", "**", "b*c");
    assertThat(Codeowners.parse("**/**/logs @o").owners("x/y/logs/z.log")).containsExactly("@o");
  }

  @Test
  void aPathLongerThanAnUploadAcceptsOwnsNobody() {
    Codeowners all = Codeowners.parse("* @everyone");

    assertThat(all.owners("a/".repeat(Codeowners.MAX_PATH))).isEmpty();
    assertThat(all.owners("a/b.txt")).containsExactly("@everyone");
  }
}

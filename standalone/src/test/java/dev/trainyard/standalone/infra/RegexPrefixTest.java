package dev.trainyard.standalone.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The prefix an anchored pattern's every match starts with: sure or shorter, never one a match
 * could lack (each row's last column is checked against the pattern too).
 */
class RegexPrefixTest {
  @ParameterizedTest(name = "{0} /{1}/ → \"{2}\"")
  @CsvSource(
      delimiter = ';',
      value = {
        "quoted, as the services write it ; ^\\Qorg/github.com/acme/rocket:\\E ; '' ; org/github.com/acme/rocket: ; org/github.com/acme/rocket:main",
        "plain literal characters ; ^org/gh ; '' ; org/gh ; org/ghx",
        "quoted, then case-insensitive ; ^\\Qorg/gh/\\E(?i)\\QAcme\\E ; '' ; org/gh/ ; org/gh/acme",
        "stops at a class ; ^t00[12] ; '' ; t00 ; t001",
        "stops at an escape ; ^t\\d ; '' ; t ; t1",
        "a star may repeat zero times ; ^abc* ; '' ; ab ; ab",
        "an optional last character ; ^abc? ; '' ; ab ; ab",
        "a counted repetition ; ^abc{0,2} ; '' ; ab ; ab",
        "a plus keeps one ; ^abc+d ; '' ; ab ; abcd",
        "a quantifier after quoted text ; ^\\Qab\\E* ; '' ; a ; a",
        "not anchored ; abc ; '' ; '' ; xabc",
        "an alternation anywhere ; ^abc|xyz ; '' ; '' ; xyz",
        "an alternation in a group ; ^(abc|xyz) ; '' ; '' ; xyz",
        "a quoted bar is text ; ^\\Qa|b\\E ; '' ; a|b ; a|b",
        "case-insensitive option ; ^abc ; i ; '' ; ABC",
        "multi-line option ; ^abc ; m ; '' ; x\\nabc",
        "extended option ; ^a b ; x ; '' ; ab",
        "dot-all changes nothing here ; ^abc ; s ; abc ; abc",
        "a group from the start ; ^(?i)abc ; '' ; '' ; ABC",
        "an unterminated quote ; ^\\Qabc ; '' ; abc ; abcd",
        "a quantifier on a character beyond 16 bits ; ^a\uD83D\uDE00? ; '' ; a ; a",
      })
  void thePrefixEveryMatchStartsWith(
      String row, String pattern, String options, String prefix, String example) {
    assertThat(RegexPrefix.of(pattern, options)).isEqualTo(prefix);
    int flags =
        (options.contains("i") ? Pattern.CASE_INSENSITIVE : 0)
            | (options.contains("m") ? Pattern.MULTILINE : 0)
            | (options.contains("x") ? Pattern.COMMENTS : 0)
            | (options.contains("s") ? Pattern.DOTALL : 0);
    String text = example.replace("\\n", "\n");
    assertThat(Pattern.compile(pattern, flags).matcher(text).find())
        .as("the example matches the pattern")
        .isTrue();
    assertThat(text).as("a match starts with the prefix").startsWith(prefix);
  }
}

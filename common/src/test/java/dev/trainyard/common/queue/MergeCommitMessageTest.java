package dev.trainyard.common.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class MergeCommitMessageTest {
  private static final MergeCommitMessage.Fields PR =
      new MergeCommitMessage.Fields(
          42,
          "Add the widget",
          "ann",
          "Why:\nit was missing.",
          List.of("Bob <bob@example.com>", "Cid <cid@example.com>"),
          "run-7",
          "main",
          "acme/app");

  static Stream<Arguments> rendered() {
    return Stream.of(
        Arguments.of(
            MergeCommitMessage.MERGE_DEFAULT, PR, "Merge pull request #42: Add the widget"),
        Arguments.of(
            MergeCommitMessage.SQUASH_DEFAULT,
            PR,
            "Add the widget (#42)\n\nWhy:\nit was missing.\n\nCo-authored-by: Bob"
                + " <bob@example.com>\nCo-authored-by: Cid <cid@example.com>"),
        // nothing to say: no blank paragraphs are left behind
        Arguments.of(
            MergeCommitMessage.SQUASH_DEFAULT,
            new MergeCommitMessage.Fields(7, "Fix", "", null, List.of(), "r", "main", "a/b"),
            "Fix (#7)"),
        Arguments.of(
            MergeCommitMessage.of("{{ title }} [{{targetBranch}}] by {{author}}", ""),
            PR,
            "Add the widget [main] by ann"),
        Arguments.of(
            MergeCommitMessage.of("{{repo}}#{{number}}", "Run: {{runId}}\n\n\n\n{{body}}"),
            PR,
            "acme/app#42\n\nRun: run-7\n\nWhy:\nit was missing."),
        // a title filled with line breaks stays one line; $ and \ are text, not group references
        Arguments.of(
            MergeCommitMessage.of("{{title}}", ""),
            new MergeCommitMessage.Fields(1, "a\nb $1 \\", "", "", List.of(), "r", "m", "a/b"),
            "a b $1 \\"),
        // a title that comes out empty falls back to the PR's title and number
        Arguments.of(
            MergeCommitMessage.of("{{author}}", "{{body}}"),
            new MergeCommitMessage.Fields(9, "Fix", "", "Why.", List.of(), "r", "m", "a/b"),
            "Fix (#9)\n\nWhy."),
        // a browser's line breaks are stored as git's
        Arguments.of(MergeCommitMessage.of("t", "a\r\nb"), PR, "t\n\na\nb"),
        // single braces and unbalanced ones are text
        Arguments.of(
            MergeCommitMessage.of("{number} {{number}", "{}"), PR, "{number} {{number}\n\n{}"));
  }

  @ParameterizedTest
  @MethodSource("rendered")
  void rendersEachPlaceholder(
      MergeCommitMessage template, MergeCommitMessage.Fields fields, String expected) {
    assertThat(template.render(fields)).isEqualTo(expected);
  }

  static Stream<Arguments> refused() {
    return Stream.of(
        Arguments.of(
            "{{reviewer}}", "", "mergeCommitMessage.title: unknown placeholder {{reviewer}}"),
        Arguments.of(
            "x", "{{ Title }}", "mergeCommitMessage.body: unknown placeholder {{ Title }}"),
        Arguments.of("", "", "mergeCommitMessage.title is required"),
        Arguments.of("  ", "", "mergeCommitMessage.title is required"),
        Arguments.of("a\nb", "", "mergeCommitMessage.title must be one line"),
        Arguments.of("x".repeat(257), "", "mergeCommitMessage.title may be at most 256"),
        Arguments.of("x", "y".repeat(4097), "mergeCommitMessage.body may be at most 4096"),
        // trainyard's own trailer, which finds a landing again after a crash, is not a template's
        Arguments.of(
            "x",
            "Trainyard-Test-Run: {{runId}}\n\nmore",
            "mergeCommitMessage must not write the Trainyard-Test-Run trailer"),
        Arguments.of("{{title}} trainyard-test-run", "", "mergeCommitMessage must not write"));
  }

  @ParameterizedTest
  @MethodSource("refused")
  void refusesNamingTheFieldAndWhatIsWrong(String title, String body, String message) {
    assertThatThrownBy(() -> MergeCommitMessage.of(title, body))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(message);
  }

  @Test
  void anUnknownPlaceholderNamesEveryKnownOne() {
    assertThatThrownBy(() -> MergeCommitMessage.of("{{who}}", null))
        .hasMessage(
            "mergeCommitMessage.title: unknown placeholder {{who}}; known: {{number}}, {{title}},"
                + " {{author}}, {{body}}, {{coAuthors}}, {{runId}}, {{targetBranch}}, {{repo}}");
  }

  @Test
  void aQueueWithoutATemplateUsesItsMethodsDefaultAndARebaseKeepsThePrsCommits() {
    MergeCommitMessage own = MergeCommitMessage.of("{{title}}", "");
    assertThat(MergeCommitMessage.effective(null, MergeMethod.MERGE_COMMIT))
        .isEqualTo(MergeCommitMessage.MERGE_DEFAULT);
    assertThat(MergeCommitMessage.effective(null, MergeMethod.SQUASH))
        .isEqualTo(MergeCommitMessage.SQUASH_DEFAULT);
    assertThat(MergeCommitMessage.effective(own, MergeMethod.SQUASH)).isEqualTo(own);
    assertThat(MergeCommitMessage.effective(own, MergeMethod.REBASE))
        .isEqualTo(MergeCommitMessage.MERGE_DEFAULT);

    QueueSettings squash =
        QueueSettings.defaults(QueueMode.SINGLE, 1)
            .apply(QueueSettingsPatch.mergeMethod(MergeMethod.SQUASH));
    assertThat(squash.landingMessage()).isEqualTo(MergeCommitMessage.SQUASH_DEFAULT);
    assertThat(squash.testBranchMessage())
        .as("a squash lands its own commits, not the test branch's merges")
        .isEqualTo(MergeCommitMessage.MERGE_DEFAULT);
  }

  @Test
  void aStoredQueueWithoutATemplateKeepsItsSettingsVersion() throws Exception {
    QueueSettings settings = QueueSettings.defaults(QueueMode.SINGLE, 1);
    String json = dev.trainyard.common.json.Json.mapper().writeValueAsString(settings);
    assertThat(json).doesNotContain("mergeCommitMessage");
    QueueSettings read =
        dev.trainyard.common.json.Json.mapper().readValue(json, QueueSettings.class);
    assertThat(read).isEqualTo(settings);
    assertThat(read.mergeCommitMessage()).isNull();
  }

  @Test
  void usesTellsWhichPlaceholdersAHostMustRead() {
    MergeCommitMessage template = MergeCommitMessage.of("{{title}}", "{{ coAuthors }}");
    assertThat(template.uses("coAuthors")).isTrue();
    assertThat(template.uses("body")).isFalse();
  }
}

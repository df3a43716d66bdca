package dev.trainyard.gateway.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;

/** What the queue page's settings form asks {@code updateQueue} to change. */
class SettingsFormTest {

  private static MultiValueMap<String, String> form(String... pairs) {
    MultiValueMap<String, String> form = new LinkedMultiValueMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      form.add(pairs[i], pairs[i + 1]);
    }
    return form;
  }

  static Stream<Arguments> forms() {
    return Stream.of(
        Arguments.of(
            "numbers become numbers, around spaces",
            form("concurrency", " 4 ", "batchingMinSize", "8"),
            Map.of("concurrency", 4L, "batchingMinSize", 8L)),
        Arguments.of(
            "a number that is not one stays text, for the API to name the field",
            form("concurrency", "four"),
            Map.of("concurrency", "four")),
        Arguments.of("an empty number changes nothing", form("concurrency", ""), Map.of()),
        Arguments.of(
            "a ticked box is true",
            form("batch", "on"),
            Map.of(
                "batch",
                true,
                "canOptimisticallyMerge",
                false,
                "batchingAdaptive",
                false,
                "concurrencyAdaptive",
                false)),
        Arguments.of(
            "modes and merge methods pass as written",
            form("mode", "parallel", "mergeMethod", "squash"),
            Map.of("mode", "parallel", "mergeMethod", "squash")),
        Arguments.of(
            "statuses are split on commas, blanks dropped",
            form("requiredStatuses", "ci/test, ci/lint,, "),
            Map.of("requiredStatuses", List.of("ci/test", "ci/lint"))),
        Arguments.of(
            "an empty status list goes back to the branch's own rules",
            form("requiredStatuses", "  "),
            Map.of("deleteRequiredStatuses", true)),
        Arguments.of(
            "a commit message title and body are the queue's template",
            form("mergeCommitTitle", " {{title}} (#{{number}}) ", "mergeCommitBody", "{{body}}"),
            Map.of(
                "mergeCommitMessage",
                Map.of("title", "{{title}} (#{{number}})", "body", "{{body}}"))),
        Arguments.of(
            "an empty commit message title goes back to the merge method's default",
            form("mergeCommitTitle", " ", "mergeCommitBody", "ignored"),
            java.util.Collections.singletonMap("mergeCommitMessage", null)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("forms")
  void patchHolds(String why, MultiValueMap<String, String> form, Map<String, Object> expected) {
    Map<String, Object> patch = SettingsForm.patch(form);

    assertThat(patch).containsAllEntriesOf(expected);
    assertThat(patch.keySet())
        .as("unticked boxes are false; nothing else is added")
        .containsExactlyInAnyOrderElementsOf(
            Stream.concat(expected.keySet().stream(), SettingsForm.FLAGS.stream())
                .distinct()
                .toList());
    assertThat(patch.get("batch")).isEqualTo(form.containsKey("batch"));
  }

  private static final dev.trainyard.common.queue.QueueSettings SINGLE =
      dev.trainyard.common.queue.QueueSettings.defaults(
          dev.trainyard.common.queue.QueueMode.SINGLE, 1);

  @org.junit.jupiter.api.Test
  void aStaleFormLearnsWhatSomeoneElseChangedSinceItWasShown() {
    String shown = SettingsForm.of(SINGLE).shown();
    tools.jackson.databind.node.ObjectNode changed =
        dev.trainyard.common.json.Json.mapper().valueToTree(SINGLE);
    changed.put("concurrency", 5);
    changed.putArray("requiredStatuses").add("ci/build").add("lint, fast");
    SettingsForm now =
        SettingsForm.of(
            dev.trainyard.common.json.Json.mapper()
                .treeToValue(changed, dev.trainyard.common.queue.QueueSettings.class));

    assertThat(now.changedSince(shown))
        .containsExactly(
            "Test runs at once: 1 → 5",
            "Required statuses (comma-separated; empty: the branch's own rules): (none) → ci/build,"
                + " lint, fast");
    assertThat(SettingsForm.of(SINGLE).changedSince(shown)).isEmpty();
    assertThat(now.version()).isNotEqualTo(SettingsForm.of(SINGLE).version());
  }

  @org.junit.jupiter.api.Test
  void whatABrowserSendsBackInPlaceOfTheShownValuesNamesNoChange() {
    SettingsForm now = SettingsForm.of(SINGLE);
    assertThat(now.changedSince("concurrency=%zz&&=&mode")).isEmpty();
    assertThat(now.changedSince(null)).isEmpty();
  }
}

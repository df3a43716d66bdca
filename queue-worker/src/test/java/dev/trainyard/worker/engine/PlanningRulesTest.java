package dev.trainyard.worker.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The planning rules the engine tries are the ones SCHEDULING.md lists, in the same order. */
class PlanningRulesTest {
  private static final Path SCHEDULING = Path.of("..", "docs", "design", "SCHEDULING.md");

  @Test
  void theEngineTriesTheRulesSchedulingMdListsInItsOrder() throws IOException {
    List<String> code =
        PlanningRules.ordered(Duration.ZERO).stream()
            .map(rule -> rule.getClass().getSimpleName())
            .toList();

    assertThat(documented()).isEqualTo(code);
  }

  /** The rule names of the numbered list under "## Planning rule", in order. */
  private static List<String> documented() throws IOException {
    String text = Files.readString(SCHEDULING);
    int from = text.indexOf("## Planning rule");
    String section = text.substring(from, text.indexOf("\n## ", from + 1));
    Matcher rule = Pattern.compile("(?m)^\\d+\\. `(\\w+)`").matcher(section);
    List<String> names = new ArrayList<>();
    while (rule.find()) {
      names.add(rule.group(1));
    }
    return names;
  }
}

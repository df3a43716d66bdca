package dev.trainyard.common.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class DependsOnLinesTest {

  static Stream<Arguments> texts() {
    return Stream.of(
        Arguments.of("no dependencies", "Fix the uploader", List.of()),
        Arguments.of("one line", "Fix it\n\nDepends-On: #12", List.of(12L)),
        Arguments.of("several on a line", "Depends-On: #12, #14 #15", List.of(12L, 14L, 15L)),
        Arguments.of("case and indent", "  depends-on:   #3\r\nDEPENDS-ON: #4", List.of(3L, 4L)),
        Arguments.of("repeats once", "Depends-On: #3\nDepends-On: #3", List.of(3L)),
        Arguments.of("not at a line start", "see Depends-On: #3", List.of()),
        Arguments.of("no number sign", "Depends-On: 3", List.of()),
        Arguments.of("beyond uint32", "Depends-On: #4294967296, #7", List.of(7L)),
        Arguments.of("null", null, List.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("texts")
  void readsTheDependsOnLines(String name, String text, List<Long> expected) {
    assertThat(DependsOnLines.parse(text, 50)).isEqualTo(expected);
  }

  @Test
  void takesAtMostMax() {
    assertThat(DependsOnLines.parse("Depends-On: #1, #2, #3", 2)).containsExactly(1L, 2L);
  }
}

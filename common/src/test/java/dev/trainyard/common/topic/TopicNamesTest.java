package dev.trainyard.common.topic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Topic and group names under a prefix; the default keeps every release's names. */
class TopicNamesTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "trainyard., trainyard.queue-commands, trainyard.queue-replies, trainyard.events, trainyard-queue-worker",
    "blue.,      blue.queue-commands,      blue.queue-replies,      blue.events,      blue.queue-worker",
    "acme-prod-, acme-prod-queue-commands, acme-prod-queue-replies, acme-prod-events, acme-prod-queue-worker",
  })
  void namesFollowThePrefix(
      String prefix, String commands, String replies, String events, String workers) {
    TopicNames names = new TopicNames(prefix);

    assertThat(names.commands()).isEqualTo(commands);
    assertThat(names.replies()).isEqualTo(replies);
    assertThat(names.events()).isEqualTo(events);
    assertThat(names.group("queue-worker")).isEqualTo(workers);
  }

  @org.junit.jupiter.api.Test
  void theDefaultIsWhatTheTopicsWereAlwaysCalled() {
    assertThat(TopicNames.DEFAULT.commands()).isEqualTo(Topics.QUEUE_COMMANDS);
    assertThat(TopicNames.DEFAULT.replies()).isEqualTo(Topics.QUEUE_REPLIES);
    assertThat(TopicNames.DEFAULT.events()).isEqualTo(Topics.EVENTS);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "blue green",
        "blue/",
        "blé.",
        "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
      })
  void aPrefixKafkaWouldRefuseIsRefused(String prefix) {
    assertThatThrownBy(() -> new TopicNames(prefix))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("1 to 100 of the characters Kafka allows");
  }
}

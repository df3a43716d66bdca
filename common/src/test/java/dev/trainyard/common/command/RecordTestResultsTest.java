package dev.trainyard.common.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.command.QueueCommand.RecordTestResults;
import dev.trainyard.common.json.Json;
import org.junit.jupiter.api.Test;

/** A command of the version before {@code excusedByPrs}, still in the topic at an upgrade. */
class RecordTestResultsTest {

  @Test
  void aCommandWrittenBeforeTheFieldExistedReadsAsItDid() {
    QueueCommand read =
        Json.mapper()
            .readValue(
                "{\"kind\":\"RecordTestResults\",\"commitSha\":\"abc\",\"failedTests\":2,"
                    + "\"unexcusedFailures\":1}",
                QueueCommand.class);

    assertThat(read).isEqualTo(new RecordTestResults("abc", 2, 1, null));
  }
}

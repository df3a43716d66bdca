package dev.trainyard.gateway.queues;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.queue.PrState;
import dev.trainyard.common.view.QueueForecast;
import dev.trainyard.common.view.WaitingFor;
import java.time.Instant;
import java.util.Date;
import org.bson.Document;
import org.junit.jupiter.api.Test;

/** The forecast a read takes from a stored queue document, of this version or an earlier one. */
class QueueReaderForecastTest {
  private static final Instant AT = Instant.parse("2026-12-03T10:00:00Z");

  /** A queue document whose forecast has PRs 4 and 7 in line, with {@code more} keys. */
  private static QueueForecast read(Document more) {
    Document forecast =
        new Document("at", Date.from(AT)).append("prNumbers", "4,7").append("etaSeconds", ",");
    forecast.putAll(more);
    return QueueReader.forecastOf(new Document("view", new Document("forecast", forecast)));
  }

  @Test
  void aDocumentWrittenBeforeTheWaitsWereKeptPlacesItsPrsWithNoWait() {
    QueueForecast forecast = read(new Document());

    assertThat(forecast.position(7)).contains(2);
    assertThat(forecast.batchUntil()).isNull();
    assertThat(forecast.place("x", 7, PrState.PENDING, AT).waitingFor()).isNull();
    assertThat(forecast.waitingReason(7)).isEmpty();
  }

  @Test
  void theWaitsAndTheBatchDeadlineAreRead() {
    QueueForecast forecast =
        read(new Document("waits", "bb").append("batchUntil", Date.from(AT.plusSeconds(600))));

    assertThat(forecast.batchUntil()).isEqualTo(AT.plusSeconds(600));
    assertThat(forecast.place("x", 7, PrState.PENDING, AT).waitingFor())
        .isEqualTo(WaitingFor.BATCH);
    assertThat(forecast.waitingReason(7).orElseThrow()).contains("2026-12-03T10:10:00.000Z");
  }

  @Test
  void aQueueWithoutAForecastHasNone() {
    assertThat(QueueReader.forecastOf(new Document("view", new Document())))
        .isEqualTo(QueueForecast.NONE);
  }
}

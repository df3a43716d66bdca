package dev.trainyard.common.boot;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.WriteConcern;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.boot.mongodb.autoconfigure.MongoConnectionDetails;

/**
 * The store client's timeouts and write concern: trainyard's defaults where the connection string
 * is silent.
 */
class StoreClientTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "mongodb://store:27017/trainyard, 2000, 2000, 10000, majority, true, 5000",
    "mongodb://store:27017/trainyard?serverSelectionTimeoutMS=700, 700, 2000, 10000, majority, true,"
        + " 5000",
    "mongodb://store:27017/trainyard?connectTimeoutMS=300&socketTimeoutMS=60000, 2000, 300, 60000,"
        + " majority, true, 5000",
    "mongodb://store:27017/trainyard?w=2&journal=false, 2000, 2000, 10000, 2, false, ",
  })
  void theConnectionStringsOwnOptionsWinAndTheDefaultsFillTheRest(
      String uri,
      long serverSelection,
      long connect,
      long read,
      String w,
      boolean journal,
      Integer wtimeout) {
    ConnectionString connection = new ConnectionString(uri);
    MongoClientSettings.Builder builder =
        MongoClientSettings.builder().applyConnectionString(connection);
    MongoConnectionDetails details = () -> connection;
    new StoreClient()
        .trainyardStoreClient(
            new StaticListableBeanFactory(Map.of("details", details))
                .getBeanProvider(MongoConnectionDetails.class),
            Duration.ofSeconds(2),
            Duration.ofSeconds(2),
            Duration.ofSeconds(10))
        .customize(builder);

    MongoClientSettings settings = builder.build();
    assertThat(settings.getClusterSettings().getServerSelectionTimeout(TimeUnit.MILLISECONDS))
        .isEqualTo(serverSelection);
    assertThat(settings.getSocketSettings().getConnectTimeout(TimeUnit.MILLISECONDS))
        .isEqualTo(connect);
    assertThat(settings.getSocketSettings().getReadTimeout(TimeUnit.MILLISECONDS)).isEqualTo(read);
    WriteConcern concern = settings.getWriteConcern();
    assertThat(String.valueOf(concern.getWObject())).isEqualTo(w);
    assertThat(concern.getJournal()).isEqualTo(journal);
    assertThat(concern.getWTimeout(TimeUnit.MILLISECONDS)).isEqualTo(wtimeout);
  }
}

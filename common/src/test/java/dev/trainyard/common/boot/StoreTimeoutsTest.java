package dev.trainyard.common.boot;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.boot.mongodb.autoconfigure.MongoConnectionDetails;

/** The store client's timeouts: trainyard's defaults where the connection string is silent. */
class StoreTimeoutsTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "mongodb://store:27017/trainyard, 2000, 2000, 10000",
    "mongodb://store:27017/trainyard?serverSelectionTimeoutMS=700, 700, 2000, 10000",
    "mongodb://store:27017/trainyard?connectTimeoutMS=300&socketTimeoutMS=60000, 2000, 300, 60000",
  })
  void theConnectionStringsOwnOptionsWinAndTheDefaultsFillTheRest(
      String uri, long serverSelection, long connect, long read) {
    ConnectionString connection = new ConnectionString(uri);
    MongoClientSettings.Builder builder =
        MongoClientSettings.builder().applyConnectionString(connection);
    MongoConnectionDetails details = () -> connection;
    new StoreTimeouts()
        .trainyardStoreTimeouts(
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
  }
}

package dev.trainyard.common.boot;

import com.mongodb.ConnectionString;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.mongodb.autoconfigure.MongoClientSettingsBuilderCustomizer;
import org.springframework.boot.mongodb.autoconfigure.MongoConnectionDetails;
import org.springframework.context.annotation.Bean;

/**
 * The store client's timeouts, the same in every mode (standalone, Helm, Testcontainers) whatever
 * connection string an operator gives: a store that is gone is noticed within {@code
 * TRAINYARD_MONGO_SERVER_SELECTION_TIMEOUT} (default 2 s), so a request answers 503 within API.md's
 * 5 s instead of waiting the driver's default 30 s. An option the connection string sets itself
 * ({@code serverSelectionTimeoutMS}, {@code connectTimeoutMS}, {@code socketTimeoutMS}) wins.
 */
@AutoConfiguration(
    beforeName = {
      "org.springframework.boot.mongodb.autoconfigure.MongoAutoConfiguration",
      "org.springframework.boot.mongodb.autoconfigure.MongoReactiveAutoConfiguration"
    })
@ConditionalOnClass(name = "com.mongodb.MongoClientSettings")
public class StoreTimeouts {

  @Bean
  MongoClientSettingsBuilderCustomizer trainyardStoreTimeouts(
      ObjectProvider<MongoConnectionDetails> connection,
      @Value("${trainyard.mongo.server-selection-timeout:2s}") Duration serverSelection,
      @Value("${trainyard.mongo.connect-timeout:2s}") Duration connect,
      @Value("${trainyard.mongo.socket-timeout:10s}") Duration socket) {
    return builder -> {
      MongoConnectionDetails details = connection.getIfAvailable();
      ConnectionString uri = details == null ? null : details.getConnectionString();
      if (uri == null || uri.getServerSelectionTimeout() == null) {
        builder.applyToClusterSettings(
            c -> c.serverSelectionTimeout(serverSelection.toMillis(), TimeUnit.MILLISECONDS));
      }
      if (uri == null || uri.getConnectTimeout() == null) {
        builder.applyToSocketSettings(
            s -> s.connectTimeout((int) connect.toMillis(), TimeUnit.MILLISECONDS));
      }
      if (uri == null || uri.getSocketTimeout() == null) {
        builder.applyToSocketSettings(
            s -> s.readTimeout((int) socket.toMillis(), TimeUnit.MILLISECONDS));
      }
    };
  }
}

package dev.trainyard.common.boot;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.WriteConcern;
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
 * The store client's settings, the same in every mode (standalone, Helm, Testcontainers) whatever
 * connection string an operator gives. Timeouts: a store that is gone is noticed within {@code
 * TRAINYARD_MONGO_SERVER_SELECTION_TIMEOUT} (default 2 s), so a request answers 503 within API.md's
 * 5 s instead of waiting the driver's default 30 s. Durability: a write is acknowledged once a
 * majority of a replica set has it in its journal ({@code w: majority, j: true}, waiting at most
 * {@link #MAJORITY_WAIT}); the driver's default (the primary alone, journal or not) loses
 * acknowledged writes when the primary fails over. An option the connection string sets itself
 * ({@code serverSelectionTimeoutMS}, {@code connectTimeoutMS}, {@code socketTimeoutMS}, {@code w},
 * {@code journal}, {@code wtimeoutMS}) wins.
 */
@AutoConfiguration(
    beforeName = {
      "org.springframework.boot.mongodb.autoconfigure.MongoAutoConfiguration",
      "org.springframework.boot.mongodb.autoconfigure.MongoReactiveAutoConfiguration"
    })
@ConditionalOnClass(name = "com.mongodb.MongoClientSettings")
public class StoreClient {
  /** How long a write waits for a majority before the store answers a write-concern error. */
  static final Duration MAJORITY_WAIT = Duration.ofSeconds(5);

  /** Majority, journaled, bounded: what every write of trainyard asks unless it says otherwise. */
  public static final WriteConcern DURABLE =
      WriteConcern.MAJORITY
          .withJournal(true)
          .withWTimeout(MAJORITY_WAIT.toMillis(), TimeUnit.MILLISECONDS);

  @Bean
  MongoClientSettingsBuilderCustomizer trainyardStoreClient(
      ObjectProvider<MongoConnectionDetails> connection,
      @Value("${trainyard.mongo.server-selection-timeout:2s}") Duration serverSelection,
      @Value("${trainyard.mongo.connect-timeout:2s}") Duration connect,
      @Value("${trainyard.mongo.socket-timeout:10s}") Duration socket) {
    return builder -> {
      MongoConnectionDetails details = connection.getIfAvailable();
      configure(
          builder,
          details == null ? null : details.getConnectionString(),
          serverSelection,
          connect,
          socket);
    };
  }

  /**
   * What every service's client gets, where the connection string {@code uri} (null: none) does not
   * say otherwise; public for tests that build a client of their own the same way.
   */
  public static void configure(
      MongoClientSettings.Builder builder,
      ConnectionString uri,
      Duration serverSelection,
      Duration connect,
      Duration socket) {
    if (uri == null || uri.getServerSelectionTimeout() == null) {
      builder.applyToClusterSettings(
          c -> c.serverSelectionTimeout(serverSelection.toMillis(), TimeUnit.MILLISECONDS));
    }
    if (uri == null || uri.getConnectTimeout() == null) {
      builder.applyToSocketSettings(
          s -> s.connectTimeout((int) connect.toMillis(), TimeUnit.MILLISECONDS));
    }
    if (uri == null || uri.getWriteConcern() == null) {
      builder.writeConcern(DURABLE);
    }
    if (uri == null || uri.getSocketTimeout() == null) {
      builder.applyToSocketSettings(
          s -> s.readTimeout((int) socket.toMillis(), TimeUnit.MILLISECONDS));
    }
  }
}

package dev.trainyard.standalone.support;

/** Where the services under test find Kafka and the document store. */
public interface Infrastructure extends AutoCloseable {
  String kafkaBootstrap();

  String mongoUri();

  /** Stops the broker (to test behaviour while it is away); not every kind can. */
  default void stopKafka() {
    throw new UnsupportedOperationException("this infrastructure cannot stop its broker");
  }

  default void stopMongo() {
    throw new UnsupportedOperationException("this infrastructure cannot stop its store");
  }

  @Override
  void close();
}

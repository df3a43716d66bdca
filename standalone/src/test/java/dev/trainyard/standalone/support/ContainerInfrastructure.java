package dev.trainyard.standalone.support;

import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.mongodb.MongoDBContainer;

/** Real MongoDB 7 and Apache Kafka in containers, where a Docker engine exists. */
public final class ContainerInfrastructure implements Infrastructure {
  private final KafkaContainer kafka = new KafkaContainer("apache/kafka:4.2.1");
  private final MongoDBContainer mongo = new MongoDBContainer("mongo:7");

  public ContainerInfrastructure() {
    kafka.start();
    mongo.start();
  }

  @Override
  public String kafkaBootstrap() {
    return kafka.getBootstrapServers();
  }

  @Override
  public String mongoUri() {
    return mongo.getReplicaSetUrl("trainyard");
  }

  @Override
  public void stopKafka() {
    kafka.stop();
  }

  @Override
  public void stopMongo() {
    mongo.stop();
  }

  @Override
  public void close() {
    kafka.stop();
    mongo.stop();
  }
}

package dev.trainyard.standalone.support;

import dev.trainyard.standalone.infra.DocumentStore;
import dev.trainyard.standalone.infra.FreePorts;
import dev.trainyard.standalone.infra.KafkaBroker;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.springframework.util.FileSystemUtils;

/** A real KRaft broker and the in-memory MongoDB-wire store, in this JVM: what CI uses. */
public final class EmbeddedInfrastructure implements Infrastructure {
  private final Path dir;
  private final DocumentStore store;
  private KafkaBroker kafka;

  public EmbeddedInfrastructure() {
    try {
      dir = Files.createTempDirectory("trainyard-it-");
      store = DocumentStore.inMemory();
      UnindexedQueries.recordTo(store);
      kafka = KafkaBroker.start(dir.resolve("kafka"), FreePorts.next(), FreePorts.next());
    } catch (Exception e) {
      // CI keeps only a failed test's summary line: the cause travels in the message
      throw new IllegalStateException("could not start the embedded infrastructure: " + e, e);
    }
  }

  /** The store, for tests that watch what the services ask of it. */
  public DocumentStore store() {
    return store;
  }

  @Override
  public String kafkaBootstrap() {
    return kafka.bootstrapServers();
  }

  @Override
  public String mongoUri() {
    return store.uri("trainyard");
  }

  @Override
  public void stopKafka() {
    kafka.close();
  }

  @Override
  public void stopMongo() {
    store.close();
  }

  @Override
  public void close() {
    try {
      kafka.close();
    } catch (RuntimeException e) {
      // already stopped by the test
    }
    store.close();
    try {
      FileSystemUtils.deleteRecursively(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

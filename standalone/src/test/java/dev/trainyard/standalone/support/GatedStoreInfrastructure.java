package dev.trainyard.standalone.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;

/**
 * The embedded infrastructure with the store behind a {@link TcpGate}: the services reach the store
 * through the gate, so a test can take the store away and bring it back with its data.
 */
public final class GatedStoreInfrastructure implements Infrastructure {
  private final EmbeddedInfrastructure inner = new EmbeddedInfrastructure();
  private final TcpGate gate;

  public GatedStoreInfrastructure() {
    try {
      gate = new TcpGate(URI.create(inner.mongoUri()).getPort());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public TcpGate gate() {
    return gate;
  }

  @Override
  public String kafkaBootstrap() {
    return inner.kafkaBootstrap();
  }

  @Override
  public String mongoUri() {
    return inner
        .mongoUri()
        .replace(":" + URI.create(inner.mongoUri()).getPort() + "/", ":" + gate.port() + "/");
  }

  @Override
  public void close() {
    gate.close();
    inner.close();
  }
}

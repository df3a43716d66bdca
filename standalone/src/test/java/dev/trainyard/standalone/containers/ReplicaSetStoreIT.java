package dev.trainyard.standalone.containers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.MongoException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import dev.trainyard.common.boot.StoreClient;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.standalone.support.QueueVersions;
import dev.trainyard.worker.store.QueueStore;
import dev.trainyard.worker.store.StoredQueue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.mongodb.core.MongoTemplate;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.junit.jupiter.EnabledIfDockerAvailable;

/**
 * The queue store on a 3-member `mongo:7` replica set, its client configured as every service's is
 * ({@link StoreClient}: journaled majority writes, majority reads of what decides deletes). The
 * client talks to the primary directly (the members know each other by network aliases the host
 * cannot resolve); replication runs between the members. What the embedded store cannot show: a
 * write a majority does not confirm fails as a write-concern error, never as a lost race, and the
 * queue stays readable whole once the members are back.
 */
@EnabledIfDockerAvailable
class ReplicaSetStoreIT {
  private static final QueueKey KEY = QueueKey.of("org", "github.com", "acme", "rocket", "main");
  private static final Network NETWORK = Network.newNetwork();
  private static final List<GenericContainer<?>> MEMBERS = new ArrayList<>();

  private MongoClient client;
  private QueueStore store;

  @BeforeAll
  static void replicaSet() throws Exception {
    for (int i = 1; i <= 3; i++) {
      GenericContainer<?> member =
          new GenericContainer<>("mongo:7")
              .withNetwork(NETWORK)
              .withNetworkAliases("m" + i)
              .withCommand("--replSet", "rs0", "--bind_ip_all")
              .withExposedPorts(27017)
              .waitingFor(Wait.forLogMessage("(?i).*waiting for connections.*", 1));
      member.start();
      MEMBERS.add(member);
    }
    MEMBERS
        .get(0)
        .execInContainer(
            "mongosh",
            "--quiet",
            "--eval",
            "rs.initiate({_id: 'rs0', members: [{_id: 0, host: 'm1:27017', priority: 2},"
                + " {_id: 1, host: 'm2:27017'}, {_id: 2, host: 'm3:27017'}]})");
    Awaitility.await()
        .atMost(Duration.ofMinutes(1))
        .until(
            () ->
                MEMBERS
                    .get(0)
                    .execInContainer("mongosh", "--quiet", "--eval", "db.hello().isWritablePrimary")
                    .getStdout()
                    .trim()
                    .equals("true"));
  }

  @AfterAll
  static void stopReplicaSet() {
    MEMBERS.forEach(GenericContainer::stop);
    NETWORK.close();
  }

  @BeforeEach
  void connect() {
    GenericContainer<?> primary = MEMBERS.get(0);
    ConnectionString uri =
        new ConnectionString(
            "mongodb://"
                + primary.getHost()
                + ":"
                + primary.getMappedPort(27017)
                + "/trainyard?directConnection=true");
    MongoClientSettings.Builder settings = MongoClientSettings.builder().applyConnectionString(uri);
    StoreClient.configure(
        settings, uri, Duration.ofSeconds(2), Duration.ofSeconds(10), Duration.ofSeconds(30));
    client = MongoClients.create(settings.build());
    store =
        new QueueStore(
            new MongoTemplate(client, "trainyard"), QueueStore.DEFAULT_MAX_DOCUMENT_BYTES);
    client.getDatabase("trainyard").drop();
  }

  @AfterEach
  void disconnect() {
    secondaries(false);
    client.close();
  }

  @Test
  void versionsWrittenOnAMajorityLoadWhole() {
    StoredQueue first =
        QueueVersions.write(
            store, QueueVersions.full(KEY, 20), StoredQueue.absent(KEY.id(), "org"));
    StoredQueue second =
        QueueVersions.write(store, QueueVersions.next(first, QueueVersions.recordState(4)), first);

    StoredQueue loaded = store.load(KEY.id()).orElseThrow();
    assertThat(loaded.version()).isEqualTo(second.version());
    assertThat(loaded.aggregate()).isEqualTo(second.aggregate());
  }

  @Test
  void aWriteNoMajorityConfirmsFailsAsAWriteConcernErrorAndTheQueueStaysReadable() {
    StoredQueue first =
        QueueVersions.write(
            store, QueueVersions.full(KEY, 20), StoredQueue.absent(KEY.id(), "org"));
    secondaries(true);

    QueueStore.Prepared prepared =
        store.prepare(
            List.of(QueueVersions.next(first, QueueVersions.recordState(4))), List.of(first));
    assertThatThrownBy(
            () -> {
              store.writeEntries(prepared);
              store.saveAll(prepared);
            })
        .as("a write the replica set did not confirm is not a lost race")
        .isInstanceOf(MongoException.class);

    secondaries(false);
    StoredQueue loaded =
        Awaitility.await()
            .atMost(Duration.ofMinutes(1))
            .ignoreExceptions()
            .until(() -> store.load(KEY.id()).orElseThrow(), q -> q.version() >= first.version());
    assertThat(loaded.aggregate().entries()).hasSize(20);
  }

  /** Pauses (or resumes) both secondaries: the primary alone is no majority. */
  private static void secondaries(boolean paused) {
    var docker = DockerClientFactory.instance().client();
    for (GenericContainer<?> member : MEMBERS.subList(1, 3)) {
      boolean isPaused =
          Boolean.TRUE.equals(
              docker.inspectContainerCmd(member.getContainerId()).exec().getState().getPaused());
      if (paused && !isPaused) {
        docker.pauseContainerCmd(member.getContainerId()).exec();
      } else if (!paused && isPaused) {
        docker.unpauseContainerCmd(member.getContainerId()).exec();
      }
    }
  }
}

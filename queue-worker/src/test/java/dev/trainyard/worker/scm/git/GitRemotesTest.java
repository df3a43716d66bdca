package dev.trainyard.worker.scm.git;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandStartedEvent;
import com.mongodb.event.CommandSucceededEvent;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import dev.trainyard.common.git.GitRemote;
import dev.trainyard.common.json.Json;
import dev.trainyard.common.queue.OrgRepo;
import dev.trainyard.common.queue.RepoRef;
import dev.trainyard.common.view.Collections;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.bson.Document;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The registrations the poller reads ahead for a round: one store read for all its repositories,
 * each then found without another, until the next round's read replaces them; one that cannot be
 * opened is refused when asked for, not when read ahead; a notify has its repository's read again
 * (once a second at most), even while a round's read is under way. Time is a test clock.
 */
class GitRemotesTest {
  private static final OrgRepo REGISTERED = repo("acme", "api");
  private static final OrgRepo LOCAL = repo("acme", "web");
  private static final OrgRepo SEALED = repo("beta", "vault");

  private final MongoServer server = new MongoServer(new MemoryBackend());
  private final AtomicInteger reads = new AtomicInteger();
  private final AtomicReference<Instant> now =
      new AtomicReference<>(Instant.parse("2026-12-07T09:00:00Z"));
  private final AtomicInteger readAhead = new AtomicInteger(-1);
  private Runnable whileReadingAhead = () -> {};
  private final MongoClient client;
  private final MongoCollection<Document> stored;
  private final GitRemotes remotes;

  GitRemotesTest() {
    InetSocketAddress address = server.bind();
    CommandListener counter =
        new CommandListener() {
          @Override
          public void commandStarted(CommandStartedEvent event) {
            if (event.getCommandName().equals("find")) {
              reads.incrementAndGet();
              if (event.getCommand().toJson().contains("$in")) {
                readAhead.set(event.getRequestId());
              }
            }
          }

          @Override
          public void commandSucceeded(CommandSucceededEvent event) {
            if (event.getRequestId() == readAhead.get()) { // answered, not yet remembered
              whileReadingAhead.run();
            }
          }
        };
    client =
        MongoClients.create(
            MongoClientSettings.builder()
                .applyConnectionString(
                    new ConnectionString("mongodb://127.0.0.1:" + address.getPort()))
                .addCommandListener(counter)
                .build());
    stored = client.getDatabase("worker").getCollection(Collections.GIT_REMOTES);
    register(REGISTERED, "https://git.example/acme/api.git", null);
    // sealed with a key this worker does not hold (it holds none)
    register(SEALED, "https://git.example/beta/vault.git", "v1.sealed");
    remotes = new GitRemotes(stored, null, now::get);
  }

  @AfterEach
  void close() {
    client.close();
    server.shutdownNow();
  }

  @Test
  void aRoundsRepositoriesAreReadInOneQueryAndThenFoundWithoutAnother() {
    remotes.readAhead(List.of(REGISTERED, LOCAL, SEALED));
    assertThat(reads).hasValue(1);

    assertThat(remotes.find(REGISTERED).map(RemoteAccess::url))
        .contains("https://git.example/acme/api.git");
    assertThat(remotes.find(LOCAL)).isEmpty();
    assertThat(remotes.find(REGISTERED)).isPresent();
    assertThat(reads).as("found as read ahead, absent ones too").hasValue(1);
  }

  @Test
  void aRegistrationThatCannotBeOpenedIsRefusedWhenAskedForNotWhenReadAhead() {
    remotes.readAhead(List.of(SEALED, REGISTERED));

    assertThatThrownBy(() -> remotes.find(SEALED))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("TRAINYARD_WEBHOOK_KEY");
    assertThat(reads).as("it alone is read again").hasValue(2);
    assertThat(remotes.find(REGISTERED)).isPresent();
    assertThat(reads).hasValue(2);
  }

  @Test
  void aChangedRegistrationIsSeenByTheNextRoundsReadAhead() {
    remotes.readAhead(List.of(REGISTERED, LOCAL));
    stored.deleteOne(new Document("_id", GitRemote.id(REGISTERED)));
    register(LOCAL, "ssh://git@git.example/acme/web.git", null);
    assertThat(remotes.find(REGISTERED)).as("as this round read it").isPresent();

    remotes.readAhead(List.of(REGISTERED, LOCAL));

    assertThat(remotes.find(REGISTERED)).isEmpty();
    assertThat(remotes.find(LOCAL).map(RemoteAccess::url))
        .contains("ssh://git@git.example/acme/web.git");
    assertThat(reads).hasValue(2);
  }

  @Test
  void aNotifiedRepositorysRegistrationIsReadAgainAtOnce() {
    remotes.readAhead(List.of(REGISTERED, LOCAL));
    register(LOCAL, "https://git.example/acme/web.git", null);
    later(Duration.ofSeconds(2));

    remotes.notified(LOCAL);

    assertThat(remotes.find(LOCAL).map(RemoteAccess::url))
        .contains("https://git.example/acme/web.git");
    assertThat(remotes.find(REGISTERED)).isPresent();
    assertThat(reads).as("the notified one alone is read again").hasValue(2);
  }

  @Test
  void aBurstOfNotifiesReadsTheStoreOnceASecond() {
    for (int i = 0; i < 5; i++) {
      remotes.notified(LOCAL);
      assertThat(remotes.find(LOCAL)).isEmpty();
    }
    assertThat(reads).as("a repository never read: read at the first").hasValue(1);

    later(Duration.ofMillis(1_001));
    remotes.notified(LOCAL);
    assertThat(remotes.find(LOCAL)).isEmpty();
    assertThat(reads).hasValue(2);
  }

  @Test
  void aNotifyWhileTheRoundReadsAheadIsNotHiddenByWhatItRead() {
    whileReadingAhead =
        () -> { // the query has answered: the registration is then set and its repository notified
          register(LOCAL, "https://git.example/acme/web.git", null);
          later(Duration.ofMillis(5));
          remotes.notified(LOCAL);
        };
    remotes.readAhead(List.of(REGISTERED, LOCAL));
    whileReadingAhead = () -> {};

    assertThat(remotes.find(LOCAL).map(RemoteAccess::url))
        .contains("https://git.example/acme/web.git");
    assertThat(remotes.find(REGISTERED)).isPresent();
    assertThat(reads).hasValue(2);
  }

  @Test
  void whatARoundReadAheadIsReadAgainOnceNoRoundReadsItInItsTime() {
    remotes.readAhead(List.of(REGISTERED));
    later(GitRemotes.READ_AHEAD.minusSeconds(1));
    assertThat(remotes.find(REGISTERED)).isPresent();
    assertThat(reads).hasValue(1);

    later(Duration.ofSeconds(1));
    remotes.readAhead(List.of(LOCAL)); // the repository left this worker's rounds
    assertThat(remotes.find(REGISTERED)).isPresent();
    assertThat(reads).hasValue(3);
  }

  @Test
  void aRepositoryNotReadAheadIsReadOnItsOwnAndRememberedBriefly() {
    assertThat(remotes.find(REGISTERED)).isPresent();
    assertThat(remotes.find(REGISTERED)).isPresent();
    assertThat(remotes.find(LOCAL)).isEqualTo(Optional.empty());
    assertThat(reads).hasValue(2);

    later(GitRemotes.FRESH);
    assertThat(remotes.find(REGISTERED)).isPresent();
    assertThat(reads).hasValue(3);
  }

  private void later(Duration by) {
    now.updateAndGet(t -> t.plus(by));
  }

  private void register(OrgRepo repo, String url, String sealedPassword) {
    GitRemote remote =
        new GitRemote(
            GitRemote.id(repo),
            repo.org(),
            repo.repo(),
            url,
            sealedPassword == null ? null : "ci",
            sealedPassword,
            null,
            null,
            Instant.parse("2026-12-07T08:00:00Z"));
    Document doc = Json.document(remote);
    stored.replaceOne(
        new Document("_id", doc.get("_id")),
        doc,
        new com.mongodb.client.model.ReplaceOptions().upsert(true));
  }

  private static OrgRepo repo(String org, String name) {
    return new OrgRepo(org, new RepoRef("git.example", org, name));
  }
}

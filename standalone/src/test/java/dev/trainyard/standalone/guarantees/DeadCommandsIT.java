package dev.trainyard.standalone.guarantees;

import static dev.trainyard.standalone.support.Api.prBody;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.command.CommandEnvelope;
import dev.trainyard.common.command.QueueCommand;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.CiSimulator;
import dev.trainyard.standalone.support.GitHost;
import dev.trainyard.standalone.support.OwnStack;
import dev.trainyard.standalone.support.QueueSteps;
import dev.trainyard.standalone.support.TestStack;
import dev.trainyard.worker.processing.ProcessingProbe;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.common.utils.Utils;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * Containment (issue 14, item 1): a command the engine throws on is kept as a dead command and
 * answered 500 naming it, while the other queues on its partition go on merging; an operator lists
 * it and, once the cause is gone, replays it, and it is applied once.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DeadCommandsIT extends OwnStack {
  private static final int PARTITIONS = 6; // TestStack's trainyard.worker.command-partitions
  private final Path gitRoot = GitHost.newRoot();
  private final AtomicBoolean broken = new AtomicBoolean(true);
  private final String poisoned = Api.uniqueRepo();
  private final String neighbour = neighbourOf(poisoned);

  /** The bug: submitting PR 1 of the poisoned queue throws in the engine while it is there. */
  private final ProcessingProbe bug =
      new ProcessingProbe() {
        @Override
        public void afterStore(CommandEnvelope envelope) {}

        @Override
        public void beforeDecide(CommandEnvelope envelope) {
          if (broken.get()
              && envelope.queue().repo().name().equals(poisoned)
              && envelope.command() instanceof QueueCommand.SubmitPullRequest submit
              && submit.prNumber() == 1) {
            throw new IllegalStateException("simulated engine bug on " + envelope.commandId());
          }
        }
      };

  @Override
  protected List<ApplicationContextInitializer<ConfigurableApplicationContext>> workerSetup() {
    return List.of(TestStack.probe(bug));
  }

  @Override
  protected Map<String, Object> properties() {
    return Map.of("trainyard.git.root", gitRoot.toString());
  }

  @Test
  @Order(1)
  void aCommandTheEngineThrowsOnIsKeptWhileItsPartitionGoesOnAndIsReplayedOnce() throws Exception {
    Api api = stack.api();
    Api admin = stack.admin();
    try (GitHost poisonedGit = new GitHost(gitRoot, TestStack.ORG, api, poisoned);
        GitHost neighbourGit = new GitHost(gitRoot, TestStack.ORG, api, neighbour);
        CiSimulator poisonedCi = new CiSimulator(poisonedGit.repo(), api, poisoned);
        CiSimulator neighbourCi = new CiSimulator(neighbourGit.repo(), api, neighbour)) {
      QueueSteps.create(api, poisoned, 2);
      QueueSteps.create(api, neighbour, 2);
      poisonedGit.openPr(1, "Add file 1", "dev1", "f1.txt", "1\n");
      poisonedGit.openPr(2, "Add file 2", "dev2", "f2.txt", "2\n");

      Api.Response failed = api.post("/v1/submitPullRequest", prBody(poisoned, 1));
      assertThat(failed.status()).as(failed.body()).isEqualTo(500);
      assertThat(failed.body()).contains("dead command");
      String commandId = failed.body().split(" ")[1];

      // the same partition goes on: the neighbour's PRs merge, the poisoned queue takes PR 2
      QueueSteps.submit(api, poisoned, 2);
      QueueSteps.landPrs(api, neighbourGit, neighbour, 3);
      QueueSteps.awaitState(api, poisoned, 2, "merged");
      assertThat(api.post("/v1/getSubmittedPullRequest", prBody(poisoned, 1)).status())
          .as("the dead command changed nothing")
          .isEqualTo(404);
      assertThat(deadCommandsCounted()).isEqualTo(1.0);
      Awaitility.await("the kept command counted as pending")
          .atMost(Duration.ofSeconds(30))
          .until(() -> deadCommandsPending() == 1.0);

      JsonNode listed = admin.post("/admin/v1/listDeadCommands", "{}").json();
      assertThat(listed.get("deadCommands").size()).isEqualTo(1);
      JsonNode dead = listed.get("deadCommands").get(0);
      assertThat(dead.get("id").asString()).isEqualTo(commandId);
      assertThat(dead.get("queue").get("repo").get("name").asString()).isEqualTo(poisoned);
      assertThat(dead.get("queue").get("targetBranch").asString()).isEqualTo("main");
      assertThat(dead.get("command").get("prNumber").asLong()).isEqualTo(1);
      assertThat(dead.get("command").path("kind").asString())
          .as("an operator tells a submit from a cancel")
          .isEqualTo("SubmitPullRequest");
      assertThat(dead.get("error").asString()).contains("simulated engine bug");
      assertThat(dead.get("at").asString()).isNotBlank();
      assertThat(api.post("/admin/v1/listDeadCommands", "{}").status())
          .as("an organization's token is not the operator's")
          .isEqualTo(401);

      broken.set(false); // the cause is removed (a fixed worker is deployed)
      String replay = "{\"id\":\"" + commandId + "\"}";
      Api.Response replayed = admin.post("/admin/v1/replayDeadCommand", replay);
      assertThat(replayed.status()).as(replayed.body()).isEqualTo(200);
      QueueSteps.awaitState(api, poisoned, 1, "merged");
      assertThat(admin.post("/admin/v1/listDeadCommands", "{}").json().get("deadCommands"))
          .isEmpty();
      assertThat(admin.post("/admin/v1/replayDeadCommand", replay).status())
          .as("replayed already")
          .isEqualTo(404);
      assertThat(poisonedGit.mainSubjects())
          .as("PR 1 landed once, after PR 2")
          .containsExactly(
              "Merge pull request #1: Add file 1",
              "Merge pull request #2: Add file 2",
              "Initial commit");
    }
  }

  /**
   * A dead command nobody should apply (the PR was closed since, say) is dismissed: the record
   * goes, the pending count with it, the command never applies; dismissing it again is a 404.
   */
  @Test
  @Order(2)
  void aDismissedDeadCommandIsGoneAndNeverApplied() throws Exception {
    Api api = stack.api();
    Api admin = stack.admin();
    broken.set(true); // after the first test's replay: the bug is back
    Api.Response failed = api.post("/v1/submitPullRequest", prBody(poisoned, 1));
    assertThat(failed.status()).as(failed.body()).isEqualTo(500);
    String commandId = failed.body().split(" ")[1];
    Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> deadCommandsPending() >= 1.0);
    double pending = deadCommandsPending();

    String dismiss = "{\"id\":\"" + commandId + "\"}";
    Api.Response dismissed = admin.post("/admin/v1/dismissDeadCommand", dismiss);
    assertThat(dismissed.status()).as(dismissed.body()).isEqualTo(200);
    assertThat(admin.post("/admin/v1/listDeadCommands", "{}").json().get("deadCommands"))
        .noneMatch(d -> d.get("id").asString().equals(commandId));
    Awaitility.await("the pending count falls with it")
        .atMost(Duration.ofSeconds(30))
        .until(() -> deadCommandsPending() == pending - 1);
    assertThat(admin.post("/admin/v1/dismissDeadCommand", dismiss).status())
        .as("dismissed already")
        .isEqualTo(404);
    assertThat(admin.post("/admin/v1/replayDeadCommand", dismiss).status())
        .as("nothing left to replay")
        .isEqualTo(404);
    assertThat(api.post("/admin/v1/dismissDeadCommand", dismiss).status())
        .as("an organization's token is not the operator's")
        .isEqualTo(401);
  }

  @Test
  void badListingAndReplayRequestsAreRefused() {
    Api admin = stack.admin();
    assertThat(admin.post("/admin/v1/listDeadCommands", "{\"take\":0}").status()).isEqualTo(400);
    assertThat(admin.post("/admin/v1/listDeadCommands", "{\"cursor\":\"nonsense\"}").status())
        .isEqualTo(400);
    assertThat(admin.post("/admin/v1/replayDeadCommand", "{\"id\":\"unknown\"}").status())
        .isEqualTo(404);
    assertThat(admin.post("/admin/v1/replayDeadCommand", "{}").status()).isEqualTo(400);
    assertThat(admin.post("/admin/v1/dismissDeadCommand", "{\"id\":\"unknown\"}").status())
        .isEqualTo(404);
    assertThat(admin.post("/admin/v1/dismissDeadCommand", "{}").status()).isEqualTo(400);
  }

  private double deadCommandsPending() {
    return stack
        .services()
        .workerContext()
        .getBean(MeterRegistry.class)
        .get("trainyard.dead.commands.pending")
        .gauge()
        .value();
  }

  private double deadCommandsCounted() {
    return stack
        .services()
        .workerContext()
        .getBean(MeterRegistry.class)
        .counter("trainyard.dead.commands")
        .count();
  }

  /** Another repository whose queue's commands share {@code repo}'s partition. */
  private static String neighbourOf(String repo) {
    int partition = partition(repo);
    for (int i = 0; ; i++) {
      String candidate = repo + "-n" + i;
      if (partition(candidate) == partition) {
        return candidate;
      }
    }
  }

  /** Kafka's default partitioner for the queue's key. */
  private static int partition(String repo) {
    byte[] key =
        QueueKey.of(TestStack.ORG, "github.com", "acme", repo, "main")
            .id()
            .getBytes(StandardCharsets.UTF_8);
    return Utils.toPositive(Utils.murmur2(key)) % PARTITIONS;
  }
}

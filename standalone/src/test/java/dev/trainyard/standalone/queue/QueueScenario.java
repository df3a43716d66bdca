package dev.trainyard.standalone.queue;

import static dev.trainyard.standalone.support.QueueSteps.awaitState;
import static dev.trainyard.standalone.support.QueueSteps.create;
import static dev.trainyard.standalone.support.QueueSteps.submit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.CiSimulator;
import dev.trainyard.standalone.support.EventLog;
import dev.trainyard.standalone.support.GitHost;
import dev.trainyard.standalone.support.OwnStack;
import dev.trainyard.standalone.support.TestStack;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import tools.jackson.databind.JsonNode;

/**
 * A merge-queue scenario over real HTTP: a fresh bare repository per test under the stack's git
 * root, its queue's API, a CI simulator watching its test branches, and the events it published.
 */
public abstract class QueueScenario extends OwnStack {
  private final Path gitRoot = GitHost.newRoot();
  protected Api api;
  protected String name;
  protected GitHost git;
  protected CiSimulator ci;

  @BeforeEach
  void repository() throws IOException {
    api = stack.api();
    name = Api.uniqueRepo();
    git = new GitHost(repositories(), TestStack.ORG, api, name);
    serve(name);
    ci = new CiSimulator(git.repo(), api, name);
  }

  /** Where this scenario's git server keeps the repositories: the stack's git root. */
  protected Path repositories() {
    return gitRoot;
  }

  /**
   * Makes the stack reach {@code github.com/acme/<name>}: nothing to do for a repository under the
   * git root; a remote variant registers its URL.
   */
  protected void serve(String repositoryName) throws IOException {}

  @AfterEach
  void closeRepository() {
    ci.close();
    git.close();
  }

  @Override
  protected Map<String, Object> properties() {
    return Map.of("trainyard.git.root", gitRoot.toString());
  }

  /**
   * PR 1 in a queue of {@code concurrency}, in a run CI holds: it stays {@code testing} until the
   * test lets CI answer.
   */
  protected void pullRequestUnderTest(int concurrency) throws IOException {
    ci.hold(true);
    create(api, name, concurrency);
    git.openPr(1, "Add a", "ann", "a.txt", "a\n");
    submit(api, name, 1);
    awaitState(api, name, 1, "testing");
  }

  /** Changes this test's queue's settings (API.md §3 {@code updateQueue}). */
  protected void update(String settings) {
    assertThat(api.post("/v1/updateQueue", Api.body(name, settings)).status()).isEqualTo(200);
  }

  /** Every event published for this test's repository, oldest first. */
  protected List<JsonNode> events() {
    return EventLog.readAll(stack.infrastructure().kafkaBootstrap()).stream()
        .map(EventLog.Event::body)
        .filter(
            b ->
                b.get("repository") != null
                    && b.get("repository").get("name").asString().equals(name))
        .toList();
  }

  protected static JsonNode first(List<JsonNode> events, String type, long pr) {
    return events.stream()
        .filter(e -> e.get("type").asString().equals(type) && e.get("pr_number").asLong() == pr)
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + type + " for PR " + pr + " in " + events));
  }

  protected static String text(JsonNode event, String field) {
    return event.get(field) == null ? null : event.get(field).asString();
  }
}

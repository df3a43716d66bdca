package dev.trainyard.standalone.cli;

import static dev.trainyard.standalone.support.QueueSteps.create;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.cli.Context;
import dev.trainyard.cli.TrainyardCli;
import dev.trainyard.cli.http.Exchange;
import dev.trainyard.cli.http.Pauses;
import dev.trainyard.common.json.Json;
import dev.trainyard.standalone.queue.QueueScenario;
import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.CiSimulator;
import dev.trainyard.standalone.support.QueueSteps;
import dev.trainyard.standalone.support.TestStack;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The command-line client (issue 54 item 2) against a running stack on real git with a CI that
 * reports on its test branches: submit then wait exits 0 once the PR merged and 1 once it failed,
 * {@code --json} prints what parses as the server's JSON, the queue controls change the queue, and
 * a refusal is one line with its exit code. Every exchange the client has is held to
 * docs/openapi.yaml; the executable jar is run as a process as a user runs it.
 */
class CommandLineIT extends QueueScenario {
  private static final Path JAR = Path.of("..", "cli", "target", "trainyard-cli.jar");

  /** A home without a config file, so the machine's own never answers for the test. */
  private static final Path HOME = home();

  private static Path home() {
    try {
      return Files.createTempDirectory("cli-home");
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** What one run of the client printed, and its exit code. */
  record Run(int exit, String out, String err) {
    JsonNode json() {
      return Json.mapper().readTree(out);
    }
  }

  private Run cli(String... args) {
    return cliWith(stack.api().token(), args);
  }

  private Run cliWith(String token, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    Context context =
        new Context(
            Map.of(
                "TRAINYARD_URL", stack.api().base(),
                "TRAINYARD_TOKEN", token,
                "HOME", HOME.toString()),
            new PrintWriter(out),
            new PrintWriter(err),
            Pauses.SLEEP,
            CommandLineIT::holdToDocument);
    int exit = TrainyardCli.run(args, context);
    return new Run(exit, out.toString(), err.toString());
  }

  private static void holdToDocument(Exchange e) {
    Api.holdToDocument(
        new Api.Exchange(e.method(), e.path(), e.json(), e.status(), e.headers(), e.body()));
  }

  private String[] on(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--repo", "acme/" + name));
    return all.toArray(String[]::new);
  }

  @Test
  void submitThenWaitExitsZeroOnceMergedOnRealGit() throws IOException {
    create(api, name, 2);
    git.openPr(1, "Add a", "ann", "a.txt", "a\n");

    Run submitted = cli(on("submit", "--pr", "1", "--priority", "high"));
    assertThat(submitted.exit()).as(submitted.err()).isZero();
    assertThat(submitted.out()).startsWith("submitted: #1 ");
    Run waited = cli(on("wait", "--pr", "1", "--interval", "200ms", "--timeout", "3m"));

    assertThat(waited.exit()).as(waited.out() + waited.err()).isZero();
    assertThat(waited.out().strip()).isEqualTo("#1 merged \"Add a\"");
    assertThat(waited.err().lines())
        .as("progress lines")
        .isNotEmpty()
        .allMatch(l -> l.startsWith("#1 "));
    assertThat(git.mainSubjects()).contains("Merge pull request #1: Add a");
  }

  @Test
  void aFailedPullRequestMakesWaitExitOne() throws IOException {
    create(api, name, 2);
    git.openPr(1, "Break it", "bob", CiSimulator.BROKEN, "red\n");

    assertThat(cli(on("submit", "--pr", "1")).exit()).isZero();
    Run waited = cli(on("wait", "--pr", "1", "--interval", "200ms", "--timeout", "3m", "--json"));

    assertThat(waited.exit()).as(waited.out() + waited.err()).isEqualTo(1);
    assertThat(waited.json().get("state").asString()).isEqualTo("failed");
    assertThat(git.mainSubjects()).noneMatch(s -> s.contains("Break it"));
  }

  @Test
  void jsonOutputIsTheServersJson() throws IOException {
    create(api, name, 2);
    ci.hold(true);
    git.openPr(1, "Add a", "ann", "a.txt", "a\n");
    assertThat(cli(on("submit", "--pr", "1", "--json")).json().get("prNumber").asLong())
        .isEqualTo(1);

    JsonNode status = cli(on("status", "--pr", "1", "--json")).json();
    assertThat(status.get("state").asString()).isIn("not_ready", "pending", "testing");
    assertThat(status.get("id").asString())
        .isEqualTo(
            api.post("/v1/getSubmittedPullRequest", Api.prBody(name, 1))
                .json()
                .get("id")
                .asString());
    JsonNode list = cli(on("list", "--json")).json();
    assertThat(list.get("pullRequests"))
        .extracting(pr -> pr.get("prNumber").asLong())
        .containsExactly(1L);
    JsonNode queue = cli(on("queue", "get", "--json")).json();
    assertThat(queue.get("concurrency").asLong()).isEqualTo(2);
    assertThat(queue.get("enqueuedPullRequests")).hasSize(1);
    JsonNode flaky = cli(on("flaky", "list", "--json", "--org", TestStack.ORG)).json();
    assertThat(flaky.get("tests")).isEmpty();
    assertThat(flaky.get("total_rows").asLong()).isZero();

    Run restarted = cli(on("restart", "--pr", "1"));
    assertThat(restarted.exit()).as(restarted.err()).isZero();
    assertThat(restarted.out()).startsWith("restarted: #1 ");
    Run cancelled = cli(on("cancel", "--pr", "1"));
    assertThat(cancelled.exit()).isZero();
    assertThat(cancelled.out()).startsWith("cancelled: #1 cancelled");
  }

  @Test
  void aLongListIsReadPageByPageUpToItsLimit() {
    create(api, name, 2);
    for (long pr = 1; pr <= 105; pr++) {
      QueueSteps.submit(api, name, pr);
    }

    JsonNode all = cli(on("list", "--limit", "103", "--json")).json();
    assertThat(all.get("pullRequests"))
        .hasSize(103)
        .extracting(pr -> pr.get("prNumber").asLong())
        .doesNotHaveDuplicates();
    assertThat(cli(on("list", "--json")).json().get("pullRequests")).hasSize(50);
  }

  @Test
  void theQueueControlsChangeTheQueue() {
    create(api, name, 2);

    assertThat(cli(on("queue", "pause")).out()).startsWith("acme/" + name + " main: paused");
    assertThat(queue().get("state").asString()).isEqualTo("paused");
    assertThat(cli(on("queue", "resume")).exit()).isZero();
    assertThat(queue().get("state").asString()).isEqualTo("running");

    Run frozen = cli(on("queue", "freeze", "--reason", "release 1.2 goes out"));
    assertThat(frozen.out()).contains("\nfrozen: release 1.2 goes out");
    assertThat(queue().get("freeze").get("reason").asString()).isEqualTo("release 1.2 goes out");
    Run past = cli(on("queue", "freeze", "--reason", "late", "--until", "2020-01-01T00:00:00Z"));
    assertThat(past.exit()).isEqualTo(3);
    assertThat(past.err())
        .startsWith("trainyard: the server refused the request (HTTP 400): ")
        .contains("until")
        .hasLineCount(1);
    assertThat(cli(on("queue", "unfreeze")).exit()).isZero();
    assertThat(queue().get("freeze").isNull()).isTrue();
  }

  @Test
  void aRefusalIsOneLineWithItsExitCode() {
    create(api, name, 2);

    Run wrongToken = cliWith("ty_not_a_token", on("status", "--pr", "1"));
    assertThat(wrongToken.exit()).isEqualTo(4);
    assertThat(wrongToken.err()).startsWith("trainyard: the token was refused").hasLineCount(1);
    assertThat(wrongToken.out()).isEmpty();

    Run noSuchPr = cli(on("cancel", "--pr", "7"));
    assertThat(noSuchPr.exit()).isEqualTo(5);
    assertThat(noSuchPr.err()).startsWith("trainyard: not found (HTTP 404): ").hasLineCount(1);
    Run noSuchQueue = cli("queue", "get", "--repo", "acme/" + name, "--branch", "nowhere");
    assertThat(noSuchQueue.exit()).isEqualTo(5);

    // another organization's token reaches nothing of this one, through the client as through curl
    Run foreign = cliWith(stack.otherOrganization().api().token(), on("queue", "pause"));
    assertThat(foreign.exit()).isEqualTo(5);
    assertThat(queue().get("state").asString()).isEqualTo("running");
    // a name that would climb out of a path is the server's 400 naming the field, exit 3
    Run climbing = cli("status", "--repo", "acme/..", "--pr", "1");
    assertThat(climbing.exit()).isEqualTo(3);
    assertThat(climbing.err()).contains("repo.name").hasLineCount(1);
  }

  @Test
  void theExecutableJarRunsOnItsOwn() throws Exception {
    assertThat(JAR).as("built by the cli module's package phase").exists();

    Process version = java("--version").start();
    assertThat(version.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(new String(version.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
        .startsWith("trainyard-cli ");

    ProcessBuilder refused = java(on("status", "--pr", "1"));
    refused.environment().put("TRAINYARD_URL", stack.api().base());
    refused.environment().put("TRAINYARD_TOKEN", "ty_not_a_token");
    refused.environment().put("HOME", HOME.toString());
    Process process = refused.start();
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.exitValue()).as(err).isEqualTo(4);
    assertThat(err).startsWith("trainyard: the token was refused").hasLineCount(1);
  }

  private ProcessBuilder java(String... args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-jar");
    command.add(JAR.toString());
    command.addAll(List.of(args));
    return new ProcessBuilder(command);
  }

  private JsonNode queue() {
    return api.post("/v1/getQueue", Api.body(name, "")).json();
  }
}

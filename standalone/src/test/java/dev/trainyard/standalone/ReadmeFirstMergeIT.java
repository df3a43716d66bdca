package dev.trainyard.standalone;

import static dev.trainyard.standalone.support.Api.prBody;
import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.ShowsLogOnFailure;
import dev.trainyard.standalone.support.StandaloneProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The README's first merge as a newcomer runs it: the standalone jar started in a fresh folder (as
 * the first of the two commands does, its data in {@code ./data}), then the walkthrough's shell
 * block, taken from README.md as written, pasted into bash in the same folder. It must end without
 * an error, print the target's history with both PRs landed in order, and leave both merged. Then
 * the curl walkthrough of docs/api-walkthrough.md, pasted next, must run on its own queue and leave
 * it running, unfrozen, for whatever comes after.
 */
@ExtendWith(ShowsLogOnFailure.class)
class ReadmeFirstMergeIT {
  private static final Path README = Path.of("..", "README.md");
  private static final String SECTION = "## Your first merge in five minutes";
  private static final Path CURL = Path.of("..", "docs", "api-walkthrough.md");

  @TempDir Path folder;

  @Test
  void theFirstMergeLandsBothPullRequestsAndTheCurlWalkthroughEndsRunning() throws Exception {
    String walkthrough = firstBlock(README, SECTION);
    int port = StandaloneProcess.freePort();
    Files.createDirectories(folder.resolve("data")); // where the process log is kept
    StandaloneProcess standalone =
        StandaloneProcess.start(
            folder.resolve("data"), port, Map.of("TRAINYARD_STATUS_SETTLE", "30s"));
    try {
      String token = standalone.awaitToken();

      String printed = paste(walkthrough, port);
      List<String> history =
          printed
              .lines()
              .filter(l -> l.matches("[0-9a-f]{7,} .*"))
              .map(l -> l.substring(l.indexOf(" ") + 1))
              .toList();
      assertThat(history)
          .as(printed)
          .containsExactly(
              "Merge pull request #2: Add b", "Merge pull request #1: Add a", "Initial commit");
      Api api = new Api("http://127.0.0.1:" + port, token);
      for (long pr = 1; pr <= 2; pr++) {
        assertThat(
                api.post("/v1/getSubmittedPullRequest", prBody("hello", pr))
                    .json()
                    .get("state")
                    .asString())
            .isEqualTo("merged");
      }

      paste(firstBlock(CURL, "# A walkthrough with curl"), port);
      JsonNode rocket = api.post("/v1/getQueue", Api.body("rocket", "")).json();
      assertThat(rocket.get("state").asString()).isEqualTo("running");
      assertThat(rocket.get("freeze").isNull()).as(rocket.toString()).isTrue();
      assertThat(rocket.get("mergeWindows")).as(rocket.toString()).isEmpty();
    } finally {
      standalone.stop();
    }
  }

  /**
   * Runs {@code commands} as pasted into bash (stopping at the first that fails) in the folder the
   * standalone was started in; returns what it printed once it ended with 0.
   */
  private String paste(String commands, int port) throws Exception {
    ProcessBuilder bash =
        new ProcessBuilder("bash", "-eo", "pipefail", "-c", commands)
            .directory(folder.toFile())
            .redirectErrorStream(true);
    bash.environment().put("TRAINYARD_URL", "http://127.0.0.1:" + port);
    Process pasted = bash.start();
    CompletableFuture<String> printed =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return new String(pasted.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            });
    boolean ended = pasted.waitFor(4, TimeUnit.MINUTES);
    if (!ended) {
      pasted.destroyForcibly();
    }
    String output = printed.get(10, TimeUnit.SECONDS);
    assertThat(ended).as("the commands end within 4 minutes:%n%s", output).isTrue();
    assertThat(pasted.exitValue()).as(output).isZero();
    return output;
  }

  /** The first {@code ```bash} block after {@code heading} in {@code file}, as written. */
  static String firstBlock(Path file, String heading) throws IOException {
    String text = Files.readString(file, StandardCharsets.UTF_8);
    int section = text.indexOf(heading);
    assertThat(section).as("%s has the section \"%s\"", file, heading).isNotNegative();
    Matcher block = Pattern.compile("```bash\n(.*?)```", Pattern.DOTALL).matcher(text);
    assertThat(block.find(section)).as("a bash block in \"%s\"", heading).isTrue();
    return block.group(1);
  }
}

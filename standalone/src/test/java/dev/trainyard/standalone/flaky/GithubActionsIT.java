package dev.trainyard.standalone.flaky;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.TestStack;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;

/**
 * The GitHub Actions integration of docs/github-actions.md as a workflow gets it: the example
 * workflow tests trainyard's branches and never its scratch branches, without GitHub's merge group,
 * and uses the composite action by a path that exists; the guide shows that very workflow. The
 * action's script, run as the runner runs it (its inputs through the environment its step maps),
 * uploads a JUnit report and a PR's impacted targets to a real gateway, which then lists the flaky
 * test and shows the PR's targets.
 */
class GithubActionsIT {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Path WORKFLOW = ROOT.resolve("docs/examples/github-actions/trainyard.yml");
  private static final Path ACTION = ROOT.resolve(".github/actions/trainyard-upload/action.yml");
  private static final Pattern INPUT = Pattern.compile("\\$\\{\\{ *inputs\\.([a-z-]+) *}}");

  @TempDir Path workspace;

  @Test
  @SuppressWarnings("unchecked")
  void theExampleWorkflowTestsTrainyardBranchesNotItsScratchOnesAndUsesTheActionByPath()
      throws IOException {
    String text = Files.readString(WORKFLOW, StandardCharsets.UTF_8);
    Map<String, Object> workflow = new Yaml().load(text);
    // YAML 1.1 reads the key `on` as true
    Map<String, Object> on =
        (Map<String, Object>) workflow.getOrDefault("on", workflow.get(Boolean.TRUE));

    assertThat(on).doesNotContainKey("merge_group");
    List<String> pushed = (List<String>) ((Map<String, Object>) on.get("push")).get("branches");
    assertThat(pushed).contains("trainyard-merge/**", "!trainyard-scratch/**");
    Map<String, Map<String, Object>> jobs = (Map<String, Map<String, Object>>) workflow.get("jobs");
    List<String> uses =
        jobs.values().stream()
            .flatMap(job -> ((List<Map<String, Object>>) job.get("steps")).stream())
            .map(step -> (String) step.get("uses"))
            .filter(u -> u != null && u.startsWith("./"))
            .toList();
    assertThat(uses).isNotEmpty();
    for (String local : uses) {
      assertThat(ROOT.resolve(local.substring(2)).resolve("action.yml")).exists();
    }
    assertThat(Files.readString(ROOT.resolve("docs/github-actions.md"), StandardCharsets.UTF_8))
        .as("the guide shows the example workflow as it is")
        .contains(text.substring(text.indexOf("name: ci")));
  }

  @Test
  void theActionUploadsJunitResultsAndImpactedTargetsToARealGateway() throws Exception {
    TestStack stack = TestStack.shared();
    Api api = stack.api();
    String repo = Api.uniqueRepo();
    assertThat(api.post("/v1/createQueue", Api.body(repo, "")).status()).isEqualTo(200);
    Path reports = Files.createDirectories(workspace.resolve("target/surefire-reports"));
    Files.writeString(
        reports.resolve("TEST-com.acme.NetTest.xml"),
        Reports.surefire("com.acme.NetTest", List.of("talks:R", "adds:P")));
    String sha = UUID.randomUUID().toString().replace("-", "") + "12345678";
    Map<String, String> common =
        Map.of(
            "gateway-url",
            api.base(),
            "token",
            api.token(),
            "repo-host",
            "github.com",
            "repository",
            "acme/" + repo,
            "commit-sha",
            sha,
            "branch",
            "main");

    Map<String, String> results = new HashMap<>(common);
    results.put("junit-paths", "**/target/surefire-reports/TEST-*.xml");
    assertThat(runAction(results)).containsEntry("test-cases", "2");

    JsonNode flaky =
        api.post(
                "/v1/flaky-tests/list-unhealthy-tests",
                FlakyTestsIT.listBody(repo, TestStack.ORG, "FLAKY", 25, ""))
            .json();
    assertThat(flaky.get("tests").findValuesAsString("name")).containsExactly("talks");

    Map<String, String> targets = new HashMap<>(common);
    targets.put("target-branch", "main");
    targets.put("pr-number", "5");
    targets.put("pr-head-sha", sha);
    targets.put("impacted-targets", "//api\n//web");
    assertThat(runAction(targets)).containsEntry("impacted-targets", "list 2");
    assertThat(api.post("/v1/submitPullRequest", Api.prBody(repo, 5)).status()).isEqualTo(200);
    JsonNode pr = api.post("/v1/getSubmittedPullRequest", Api.prBody(repo, 5)).json();
    assertThat(pr.get("readiness").get("hasImpactedTargets").asBoolean())
        .as(pr.toString())
        .isTrue();
  }

  /**
   * Runs the action's step as the runner would: its script in bash, in the workspace, with the
   * environment the step maps from {@code inputs} (each input not given takes the action's default,
   * an expression of the workflow's context being empty here). Returns the step's outputs.
   */
  @SuppressWarnings("unchecked")
  private Map<String, String> runAction(Map<String, String> inputs) throws Exception {
    Map<String, Object> action = new Yaml().load(Files.readString(ACTION, StandardCharsets.UTF_8));
    Map<String, Map<String, Object>> declared =
        (Map<String, Map<String, Object>>) action.get("inputs");
    Map<String, Object> step =
        ((List<Map<String, Object>>) ((Map<String, Object>) action.get("runs")).get("steps"))
            .get(0);
    Path outputs = workspace.resolve("github-output-" + UUID.randomUUID());
    Files.createFile(outputs);
    ProcessBuilder bash =
        new ProcessBuilder("bash", "-c", (String) step.get("run"))
            .directory(workspace.toFile())
            .redirectErrorStream(true);
    bash.environment().put("GITHUB_OUTPUT", outputs.toString());
    bash.environment().put("GITHUB_WORKSPACE", workspace.toString());
    ((Map<String, Object>) step.get("env"))
        .forEach(
            (variable, expression) -> {
              Matcher input = INPUT.matcher(String.valueOf(expression));
              assertThat(input.matches()).as("%s maps an input", variable).isTrue();
              Object fallback = declared.get(input.group(1)).getOrDefault("default", "");
              String value =
                  inputs.getOrDefault(
                      input.group(1),
                      String.valueOf(fallback).contains("${{") ? "" : String.valueOf(fallback));
              bash.environment().put(variable, value);
            });
    Process run = bash.start();
    String printed = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(run.waitFor(2, TimeUnit.MINUTES)).isTrue();
    assertThat(run.exitValue()).as(printed).isZero();
    assertThat(printed.lines().filter(l -> !l.startsWith("::add-mask::")))
        .as("the token is printed only for GitHub to mask it")
        .noneMatch(l -> l.contains(inputs.get("token")));
    Map<String, String> out = new HashMap<>();
    for (String line : Files.readAllLines(outputs)) {
      if (line.contains("=")) {
        out.put(line.substring(0, line.indexOf('=')), line.substring(line.indexOf('=') + 1));
      }
    }
    return out;
  }
}

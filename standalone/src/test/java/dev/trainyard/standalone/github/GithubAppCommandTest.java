package dev.trainyard.standalone.github;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The command line of {@code github-app}: what it refuses (exit 2, the reason and the usage). */
class GithubAppCommandTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "''                                                  | the only command is create",
        "delete --url https://t.example.com                  | the only command is create",
        "create                                              | --url must be the gateway's public https address",
        "create --url http://t.example.com                   | --url must be the gateway's public https address",
        "create --url t.example.com                          | --url must be the gateway's public https address",
        "create --url https://t.example.com/?x=1             | --url must be the gateway's public https address",
        "create --url https://t.example.com/#frag            | --url must be the gateway's public https address",
        "create --url https://me:pw@t.example.com            | --url must be the gateway's public https address",
        "create --url https://t.example.com --owner acme     | unknown option --owner",
        "create --url https://t.example.com --org            | --org needs a value",
        "create --url https://t.example.com --port eighty    | --port must be a number",
        "create --url https://t.example.com --secret-name A_B | --secret-name must be a Kubernetes name",
      })
  void aBadCommandLineIsRefusedWithItsReason(String line, String reason) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    List<String> args = line.isBlank() ? List.of() : List.of(line.trim().split(" +"));

    int status =
        GithubAppCommand.run(
            args, new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true));

    assertThat(status).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains(reason).contains("usage:");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "https://github.com           | https://api.github.com",
        "https://ghe.example.com/     | https://ghe.example.com/api/v3",
      })
  void theApiFollowsTheGithubItIsCreatedOn(String github, String api) {
    Map<String, String> options =
        GithubAppCommand.parse(
            List.of("create", "--url", "https://t.example.com/", "--github", github));

    assertThat(options)
        .containsEntry("api", api)
        .containsEntry("url", "https://t.example.com")
        .containsEntry("out", "trainyard-github.yaml");
  }
}

package dev.trainyard.cli;

import dev.trainyard.cli.http.Refused;
import java.time.Duration;
import picocli.CommandLine.Option;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** The options every command takes: the queue it acts on, the server, the output. */
final class Options {
  @Option(
      names = "--repo",
      required = true,
      paramLabel = "OWNER/NAME",
      description = "The repository, as owner/name.")
  String repo;

  @Option(
      names = "--branch",
      defaultValue = "main",
      description = "The queue's target branch (default: ${DEFAULT-VALUE}).")
  String branch;

  @Option(
      names = "--host",
      defaultValue = "github.com",
      description = "The repository's host (default: ${DEFAULT-VALUE}).")
  String host;

  @Option(names = "--json", description = "Print the server's JSON instead of text.")
  boolean json;

  @Option(
      names = "--url",
      paramLabel = "URL",
      description = "The server, as http://localhost:8080 (else TRAINYARD_URL, the config file).")
  String url;

  @Option(
      names = "--token",
      paramLabel = "TOKEN",
      description = "The API token (else TRAINYARD_TOKEN, the config file).")
  String token;

  @Option(
      names = "--retry-for",
      defaultValue = "2m",
      paramLabel = "DURATION",
      converter = Durations.class,
      description =
          "How long to retry a request answered 429/503 or not at all (default: ${DEFAULT-VALUE}).")
  Duration retryFor;

  /** {@code {"repo": {...}, "targetBranch": ...}}: the fields every request starts with. */
  ObjectNode queue() {
    String[] parts = repo.split("/", -1);
    if (parts.length != 2 || parts[0].isBlank() || parts[1].isBlank()) {
      throw Refused.usage("--repo must be owner/name, not '" + repo + "'");
    }
    ObjectNode body = JsonNodeFactory.instance.objectNode();
    body.putObject("repo").put("host", host).put("owner", parts[0]).put("name", parts[1]);
    body.put("targetBranch", branch);
    return body;
  }

  /** The queue as a person names it: {@code owner/name main}. */
  String queueName() {
    return repo + " " + branch;
  }
}

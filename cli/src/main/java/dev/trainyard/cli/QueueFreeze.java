package dev.trainyard.cli;

import dev.trainyard.cli.http.Client;
import dev.trainyard.cli.http.Settings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import tools.jackson.databind.node.ObjectNode;

@Command(
    name = "freeze",
    description = "Stop landing (testing goes on) until unfrozen or until --until.")
final class QueueFreeze extends Verb {
  @Option(
      names = "--reason",
      required = true,
      paramLabel = "TEXT",
      description = "Why, in one line: shown on the queue and in its events.")
  String reason;

  @Option(
      names = "--until",
      paramLabel = "TIME",
      description = "When the freeze ends by itself, RFC 3339 (2026-12-24T18:00:00Z).")
  String until;

  @Override
  int run(Client client, Settings settings, Printer printer) {
    ObjectNode body = options.queue().put("reason", reason);
    if (until != null) {
      body.put("until", until);
    }
    client.change("/v1/freezeQueue", body);
    return QueueGet.show(client, printer, options);
  }
}

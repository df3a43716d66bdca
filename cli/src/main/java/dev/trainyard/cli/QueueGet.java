package dev.trainyard.cli;

import dev.trainyard.cli.http.Client;
import dev.trainyard.cli.http.Exit;
import dev.trainyard.cli.http.Settings;
import picocli.CommandLine.Command;
import tools.jackson.databind.JsonNode;

@Command(name = "get", description = "The queue's state, settings, freeze and pull requests.")
final class QueueGet extends Verb {
  @Override
  int run(Client client, Settings settings, Printer printer) {
    return show(client, printer, options);
  }

  /** Reads the queue and prints it. */
  static int show(Client client, Printer printer, Options options) {
    JsonNode queue = client.read("/v1/getQueue", options.queue());
    printer.result(queue, Describe.queue(options.queueName(), queue));
    return Exit.OK;
  }
}

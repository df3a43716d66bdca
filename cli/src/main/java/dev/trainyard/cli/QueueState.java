package dev.trainyard.cli;

import dev.trainyard.cli.http.Client;
import dev.trainyard.cli.http.Exit;
import dev.trainyard.cli.http.Settings;
import picocli.CommandLine.Command;
import tools.jackson.databind.JsonNode;

/** Sets the queue's state through {@code updateQueue}, which answers the queue as it now is. */
abstract class QueueState extends Verb {
  abstract String state();

  @Override
  int run(Client client, Settings settings, Printer printer) {
    JsonNode queue = client.change("/v1/updateQueue", options.queue().put("state", state()));
    printer.result(queue, Describe.queue(options.queueName(), queue));
    return Exit.OK;
  }

  @Command(name = "pause", description = "Stop starting test runs; running ones finish.")
  static final class Pause extends QueueState {
    @Override
    String state() {
      return "paused";
    }
  }

  @Command(name = "resume", description = "Run the queue again after a pause or a drain.")
  static final class Resume extends QueueState {
    @Override
    String state() {
      return "running";
    }
  }
}

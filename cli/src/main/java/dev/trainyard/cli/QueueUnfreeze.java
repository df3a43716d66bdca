package dev.trainyard.cli;

import dev.trainyard.cli.http.Client;
import dev.trainyard.cli.http.Settings;
import picocli.CommandLine.Command;

@Command(name = "unfreeze", description = "Land again; passed runs land in order.")
final class QueueUnfreeze extends Verb {
  @Override
  int run(Client client, Settings settings, Printer printer) {
    client.change("/v1/unfreezeQueue", options.queue());
    return QueueGet.show(client, printer, options);
  }
}

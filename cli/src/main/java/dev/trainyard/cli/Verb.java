package dev.trainyard.cli;

import dev.trainyard.cli.http.Client;
import dev.trainyard.cli.http.Retrying;
import dev.trainyard.cli.http.Settings;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** A command that talks to the server about one queue: its options resolved, then its requests. */
abstract class Verb implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin Options options;

  @Override
  public Integer call() {
    Context context = ((TrainyardCli) spec.root().userObject()).context();
    Settings settings = Settings.resolve(options.url, options.token, org(), context.env());
    Client client =
        new Client(
            TrainyardCli.MAPPER,
            settings,
            new Retrying(options.retryFor),
            context.pauses(),
            context.observer(),
            TrainyardCli.version());
    Printer printer = new Printer(context.out(), context.err(), options.json);
    if (settings.tokenInTheClear()) {
      printer.progress(
          "trainyard: warning: the token goes to " + settings.url() + " unencrypted; use https");
    }
    return run(client, settings, printer);
  }

  /** The {@code --org} option of the commands that name an organization; null for the rest. */
  String org() {
    return null;
  }

  /** Does the command's work: its exit code. */
  abstract int run(Client client, Settings settings, Printer printer);
}

package dev.trainyard.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(
    name = "flaky",
    description = "The repository's flaky and broken tests.",
    synopsisSubcommandLabel = "list",
    subcommands = FlakyList.class)
final class FlakyCommands implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "name what to do: list");
  }
}

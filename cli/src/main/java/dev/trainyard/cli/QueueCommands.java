package dev.trainyard.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(
    name = "queue",
    description = "Read or control a queue.",
    synopsisSubcommandLabel = "(get | pause | resume | freeze | unfreeze)",
    subcommands = {
      QueueGet.class,
      QueueState.Pause.class,
      QueueState.Resume.class,
      QueueFreeze.class,
      QueueUnfreeze.class
    })
final class QueueCommands implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(
        spec.commandLine(), "name what to do: get, pause, resume, freeze or unfreeze");
  }
}

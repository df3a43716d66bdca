package dev.trainyard.cli;

import dev.trainyard.cli.http.Refused;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code trainyard}: the merge queue from a terminal or a CI script. Every command takes {@code
 * --repo owner/name}, {@code --branch}, {@code --host}, {@code --json}, and finds the server and
 * its token as {@link dev.trainyard.cli.http.Settings} says.
 */
@Command(
    name = "trainyard",
    mixinStandardHelpOptions = true,
    scope = ScopeType.INHERIT,
    versionProvider = TrainyardCli.Version.class,
    synopsisSubcommandLabel = "COMMAND",
    description = "Submit to, follow and control trainyard's merge queues.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:done; wait: merged",
      "1:wait: failed or cancelled",
      "2:a wrong command line or configuration",
      "3:refused as sent (400, 409, 413, 422, another 4xx)",
      "4:the token was refused (401) or may not do this (403)",
      "5:no such queue or pull request (404)",
      "6:no answer within --retry-for (429, 503, no connection), a server error, wait's --timeout",
      "70:a fault of the client itself"
    },
    subcommands = {
      Submit.class,
      Cancel.class,
      Restart.class,
      Status.class,
      Wait.class,
      ListPullRequests.class,
      QueueCommands.class,
      FlakyCommands.class
    })
public final class TrainyardCli implements Runnable {
  static final ObjectMapper MAPPER = JsonMapper.builder().build();

  /** A fault of the client itself (sysexits' EX_SOFTWARE). */
  static final int BUG = 70;

  private final Context context;
  @Spec CommandSpec spec;

  private TrainyardCli(Context context) {
    this.context = context;
  }

  Context context() {
    return context;
  }

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "name a command");
  }

  public static void main(String[] args) {
    System.exit(run(args, Context.system()));
  }

  /** Runs one command line in {@code context}: its exit code. */
  public static int run(String[] args, Context context) {
    CommandLine line = new CommandLine(new TrainyardCli(context));
    line.setOut(context.out());
    line.setErr(context.err());
    line.setExecutionExceptionHandler(
        (fault, command, parsed) -> {
          if (fault instanceof Refused refused) {
            command.getErr().println("trainyard: " + refused.getMessage());
            return refused.exit();
          }
          command.getErr().println("trainyard: a fault of the client itself: " + fault);
          return BUG;
        });
    int exit = line.execute(args);
    context.out().flush();
    context.err().flush();
    return exit;
  }

  static String version() {
    String version = TrainyardCli.class.getPackage().getImplementationVersion();
    return version == null ? "development" : version;
  }

  /** The jar's own version (its manifest's). */
  static final class Version implements IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"trainyard-cli " + version()};
    }
  }
}

package dev.trainyard.cli;

import dev.trainyard.cli.http.Exchange;
import dev.trainyard.cli.http.Pauses;
import java.io.PrintWriter;
import java.util.Map;

/**
 * What a run of the command line works with besides its arguments: the environment, where it
 * prints, how it waits, and who sees its exchanges (a test holding them to the API's document).
 */
public record Context(
    Map<String, String> env,
    PrintWriter out,
    PrintWriter err,
    Pauses pauses,
    Exchange.Observer observer) {

  /** The process's own. */
  static Context system() {
    return new Context(
        System.getenv(),
        new PrintWriter(System.out, true),
        new PrintWriter(System.err, true),
        Pauses.SLEEP,
        Exchange.Observer.NONE);
  }
}

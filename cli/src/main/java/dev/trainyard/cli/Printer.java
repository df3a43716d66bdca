package dev.trainyard.cli;

import java.io.PrintWriter;
import tools.jackson.databind.JsonNode;

/**
 * Where a command's output goes: its result on standard output, as the server's JSON with {@code
 * --json} or as a line for a person; progress on standard error, so a script reading the JSON never
 * sees it.
 */
final class Printer {
  private final PrintWriter out;
  private final PrintWriter err;
  private final boolean json;

  Printer(PrintWriter out, PrintWriter err, boolean json) {
    this.out = out;
    this.err = err;
    this.json = json;
  }

  /** The result: {@code answer} as JSON, or {@code text}. */
  void result(JsonNode answer, String text) {
    out.println(json ? TrainyardCli.MAPPER.writeValueAsString(answer) : text);
    out.flush();
  }

  void progress(String line) {
    err.println(line);
    err.flush();
  }
}

package dev.trainyard.cli.http;

/**
 * Why a command could not do what it was asked, as one line for a person and an exit code for a
 * script.
 */
public final class Refused extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final int exit;

  private Refused(int exit, String message) {
    super(message, null, false, false);
    this.exit = exit;
  }

  public int exit() {
    return exit;
  }

  /** A definitive answer other than 200: its meaning, the status and the server's own sentence. */
  public static Refused answer(int status, String body) {
    String said = firstLine(body);
    String what =
        switch (status) {
          case 401 -> "the token was refused (check --token, TRAINYARD_TOKEN or the config file)";
          case 403 -> "the token's role does not allow this";
          case 404 -> "not found";
          case 409 -> "conflict";
          case 413 -> "the request is too large";
          case 422 -> "the request does not match the earlier one sent with its key";
          default -> status >= 500 ? "the server failed" : "the server refused the request";
        };
    return new Refused(
        exitFor(status), what + " (HTTP " + status + ")" + (said.isEmpty() ? "" : ": " + said));
  }

  /** No definitive answer came within the retry budget, or none can be read. */
  public static Refused unavailable(String why) {
    return new Refused(Exit.UNAVAILABLE, why);
  }

  /** The command line or the configuration cannot be used. */
  public static Refused usage(String why) {
    return new Refused(Exit.USAGE, why);
  }

  static int exitFor(int status) {
    return switch (status) {
      case 401, 403 -> Exit.NOT_ALLOWED;
      case 404 -> Exit.NOT_FOUND;
      default -> status >= 500 ? Exit.UNAVAILABLE : Exit.REFUSED;
    };
  }

  /** The server's errors are one sentence; anything longer is cut so the message stays a line. */
  static String firstLine(String body) {
    String line = body == null ? "" : body.strip().lines().findFirst().orElse("");
    return line.length() > 300 ? line.substring(0, 300) + "…" : line;
  }
}

package dev.trainyard.cli.http;

/** The exit codes of every command, as the CLI's README lists them. */
public final class Exit {
  public static final int OK = 0;

  /** {@code wait}: the pull request failed or was cancelled. */
  public static final int NOT_MERGED = 1;

  /** A command line, an option or the configuration that cannot be used (picocli's own code). */
  public static final int USAGE = 2;

  /** The server refused the request as sent: 400, 409, 413, 422, another 4xx not named here. */
  public static final int REFUSED = 3;

  /** The token was refused (401) or its role does not allow the request (403). */
  public static final int NOT_ALLOWED = 4;

  /** The queue or pull request does not exist for the token's organization (404). */
  public static final int NOT_FOUND = 5;

  /**
   * No definitive answer within the retry budget (429, 502-504, no connection), a 5xx, a timeout.
   */
  public static final int UNAVAILABLE = 6;

  private Exit() {}
}

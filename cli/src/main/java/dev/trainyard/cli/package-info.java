/**
 * The {@code trainyard} command line: one class per command, each a request or two of the v1 API
 * printed for a person (or as the server's JSON with {@code --json}), with the exit codes of {@link
 * dev.trainyard.cli.http.Exit}.
 */
package dev.trainyard.cli;

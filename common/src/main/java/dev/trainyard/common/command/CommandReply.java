package dev.trainyard.common.command;

/** The worker's answer to one command: accepted, or rejected with a type and a sentence. */
public record CommandReply(
    String correlationId, String commandId, RejectionType rejection, String message) {

  public static CommandReply accepted(String correlationId, String commandId) {
    return new CommandReply(correlationId, commandId, null, null);
  }

  public boolean isAccepted() {
    return rejection == null;
  }
}

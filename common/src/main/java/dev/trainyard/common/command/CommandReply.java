package dev.trainyard.common.command;

/** The worker's answer to one command: accepted, or rejected with a type and a sentence. */
public record CommandReply(
    String correlationId, String commandId, RejectionType rejection, String message) {

  public static CommandReply accepted(String correlationId, String commandId) {
    return new CommandReply(correlationId, commandId, null, null);
  }

  /**
   * The answer to a command that could not be applied (a fault of trainyard, not of the client): it
   * names the command, which an operator finds among the dead commands.
   */
  public static CommandReply fault(CommandEnvelope envelope) {
    return new CommandReply(
        envelope.correlationId(),
        envelope.commandId(),
        RejectionType.FAULT,
        "command "
            + envelope.commandId()
            + " could not be applied; it is kept as a dead command for an operator to replay");
  }

  public boolean isAccepted() {
    return rejection == null;
  }
}

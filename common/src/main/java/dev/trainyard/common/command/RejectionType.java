package dev.trainyard.common.command;

/** Why the engine refused a command; the gateway maps each to one HTTP status. */
public enum RejectionType {
  /** The queue or the PR does not exist (404). */
  NOT_FOUND,
  /** The command is not allowed in the current state, e.g. submit to a draining queue (400). */
  INVALID_STATE,
  /** The thing to create exists already (409). */
  CONFLICT,
  /** A limit of the queue is reached, e.g. the pull requests it may hold (429). */
  LIMIT_REACHED,
  /**
   * Not the client's doing: the command could not be applied (the engine threw, or its result could
   * not be stored) and is kept as a dead command for an operator (500 naming the command).
   */
  FAULT
}

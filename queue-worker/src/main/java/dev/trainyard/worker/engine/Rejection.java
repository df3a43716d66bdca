package dev.trainyard.worker.engine;

import dev.trainyard.common.command.RejectionType;

/** A command the engine refused: a type for the status code and a sentence for the client. */
public record Rejection(RejectionType type, String message) {
  static Rejection notFound(String message) {
    return new Rejection(RejectionType.NOT_FOUND, message);
  }

  static Rejection invalidState(String message) {
    return new Rejection(RejectionType.INVALID_STATE, message);
  }

  static Rejection conflict(String message) {
    return new Rejection(RejectionType.CONFLICT, message);
  }

  static Rejection limitReached(String message) {
    return new Rejection(RejectionType.LIMIT_REACHED, message);
  }
}

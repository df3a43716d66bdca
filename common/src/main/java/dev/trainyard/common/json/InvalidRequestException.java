package dev.trainyard.common.json;

/**
 * A request body, or one of its fields, that API.md §1 does not allow; every service answers it
 * with a 400 whose sentence is this message (it names the field).
 */
public class InvalidRequestException extends RuntimeException {
  public InvalidRequestException(String message) {
    super(message, null, false, false);
  }
}

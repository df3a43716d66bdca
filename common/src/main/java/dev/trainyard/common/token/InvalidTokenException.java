package dev.trainyard.common.token;

/**
 * A paging token that is not one of the listing it was sent to; every service answers it with a 400
 * whose sentence is this message.
 */
public class InvalidTokenException extends RuntimeException {
  private final String field;

  public InvalidTokenException(String field) {
    super(field + " is not a cursor of this listing", null, false, false);
    this.field = field;
  }

  public String field() {
    return field;
  }
}

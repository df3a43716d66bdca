package dev.trainyard.common.net;

/**
 * A URL or address the outbound policy refuses. The message is the sentence a caller shows as it
 * is: it names {@code url}, and says which rule and which address.
 */
public final class OutboundRefusedException extends RuntimeException {
  public OutboundRefusedException(String message) {
    super(message, null, false, false); // a verdict, not a fault: no stack trace to fill in
  }
}

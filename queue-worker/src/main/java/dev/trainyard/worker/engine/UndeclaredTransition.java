package dev.trainyard.worker.engine;

/**
 * A state change no {@link TransitionTable} declares: an engine bug. It fails the same way every
 * time the command is decided, so the worker treats it as permanent: the command is kept as a dead
 * command and answered as a fault, and the queue goes on without it.
 */
public final class UndeclaredTransition extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  public UndeclaredTransition(String message) {
    super(message);
  }
}

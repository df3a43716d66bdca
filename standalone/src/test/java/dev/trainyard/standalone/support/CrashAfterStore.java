package dev.trainyard.standalone.support;

import dev.trainyard.common.command.CommandEnvelope;
import dev.trainyard.worker.processing.ProcessingProbe;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * Simulates a consumer crash at the worst moment: after the new queue state is durable, before the
 * events, the reply and the offset commit. Every matching command crashes on its first delivery;
 * the redelivery must not apply it again.
 */
public final class CrashAfterStore implements ProcessingProbe {
  private final Predicate<CommandEnvelope> matches;
  private final Set<String> crashed = ConcurrentHashMap.newKeySet();
  private final AtomicInteger stored = new AtomicInteger();

  public CrashAfterStore(Predicate<CommandEnvelope> matches) {
    this.matches = matches;
  }

  @Override
  public void afterStore(CommandEnvelope envelope) {
    stored.incrementAndGet();
    if (matches.test(envelope) && crashed.add(envelope.commandId())) {
      throw new IllegalStateException(
          "simulated consumer crash between store write and offset commit");
    }
  }

  /** How many commands crashed (each once). */
  public int crashes() {
    return crashed.size();
  }

  /** How many commands this worker stored a new state for. */
  public int stored() {
    return stored.get();
  }
}

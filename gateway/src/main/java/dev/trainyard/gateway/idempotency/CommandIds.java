package dev.trainyard.gateway.idempotency;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import reactor.util.context.Context;
import reactor.util.context.ContextView;

/**
 * The ids of the commands a request sends: random, or, for a request with an idempotency key, the
 * n-th command's id derived from the key, so that a retry sends the same commands under the same
 * ids and the worker applies each once.
 */
public final class CommandIds {
  private static final String KEY = CommandIds.class.getName();

  private final String seed;
  private final AtomicInteger sent = new AtomicInteger();

  private CommandIds(String seed) {
    this.seed = seed;
  }

  /**
   * Commands sent in this context get ids derived from {@code seed}, in the order they are sent.
   */
  public static Context seeded(String seed) {
    return Context.of(KEY, new CommandIds(seed));
  }

  /** The id of the next command sent in {@code context}. */
  public static String next(ContextView context) {
    Optional<CommandIds> ids = context.getOrEmpty(KEY);
    return ids.map(CommandIds::derive).orElseGet(() -> UUID.randomUUID().toString());
  }

  private String derive() {
    String name = "idempotency:" + seed + ":" + sent.incrementAndGet();
    return UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8)).toString();
  }
}

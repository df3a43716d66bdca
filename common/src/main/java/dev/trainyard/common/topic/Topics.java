package dev.trainyard.common.topic;

/**
 * The Kafka topics of ARCHITECTURE.md under the default prefix. The services name them through
 * {@link TopicNames}, whose prefix an install may change; these constants are what they are called
 * by default (and in the tests).
 */
public final class Topics {
  /** API commands, SCM/CI signals, effect results and ticks; key = queue key. */
  public static final String QUEUE_COMMANDS = "trainyard.queue-commands";

  /** Replies to the gateway instance that asked; key = correlation id. */
  public static final String QUEUE_REPLIES = "trainyard.queue-replies";

  /** Domain events, shaped as the webhook bodies of API.md §7; key = queue key or test id. */
  public static final String EVENTS = "trainyard.events";

  private Topics() {}
}

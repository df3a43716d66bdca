package dev.trainyard.common.topic;

import java.util.regex.Pattern;

/**
 * The names of the topics of ARCHITECTURE.md and of the consumer groups reading them, under one
 * prefix ({@code TRAINYARD_KAFKA_TOPIC_PREFIX}, default {@code trainyard.}): two installs with
 * different prefixes share one Kafka cluster without reading each other's records. With the default
 * prefix the names are {@link Topics}' and the groups the ones every release had, so an upgrade
 * keeps its topics and committed offsets.
 */
public final class TopicNames {
  public static final String DEFAULT_PREFIX = "trainyard.";

  /** Kafka's topic characters, and room for the longest suffix within its 249. */
  public static final Pattern PREFIX = Pattern.compile("[A-Za-z0-9._-]{1,100}");

  public static final TopicNames DEFAULT = new TopicNames(DEFAULT_PREFIX);

  private final String prefix;
  private final String commands;
  private final String replies;
  private final String events;

  public TopicNames(String prefix) {
    if (!PREFIX.matcher(prefix).matches()) {
      throw new IllegalArgumentException(
          "a topic prefix is 1 to 100 of the characters Kafka allows (letters, digits, . _ -)");
    }
    this.prefix = prefix;
    this.commands = prefix + "queue-commands";
    this.replies = prefix + "queue-replies";
    this.events = prefix + "events";
  }

  public String prefix() {
    return prefix;
  }

  /** API commands, SCM/CI signals, effect results and ticks; key = queue key. */
  public String commands() {
    return commands;
  }

  /** Replies to the gateway instance that asked; key = correlation id. */
  public String replies() {
    return replies;
  }

  /** Domain events, shaped as the webhook bodies of API.md §7; key = queue key or test id. */
  public String events() {
    return events;
  }

  /**
   * The consumer group of {@code service}'s readers: {@code trainyard-<service>} under the default
   * prefix (the groups of every release so far), else {@code <prefix><service>}.
   */
  public String group(String service) {
    return (prefix.equals(DEFAULT_PREFIX) ? "trainyard-" : prefix) + service;
  }
}

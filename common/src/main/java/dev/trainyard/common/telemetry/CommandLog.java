package dev.trainyard.common.telemetry;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The loggers of the one line each command leaves at each service it passes, at INFO: the gateway
 * answered it ({@link #GATEWAY}), a worker decided and stored it ({@link #WORKER}), an effect it
 * led to was done ({@link #EFFECTS}), an event it caused was delivered ({@link #WEBHOOKS}). Each
 * line carries the trace and the fields of {@link LogFields}, so a client's {@code traceparent} or
 * a command id finds them all. Their level is set under {@code trainyard.commands} like any other
 * ({@code LOGGING_LEVEL_TRAINYARD_COMMANDS=WARN} silences them; the chart's {@code
 * logging.commands}). Commands a worker sends itself (ticks, source-host reports) log at DEBUG.
 */
public final class CommandLog {
  public static final Logger GATEWAY = LoggerFactory.getLogger("trainyard.commands.gateway");
  public static final Logger WORKER = LoggerFactory.getLogger("trainyard.commands.worker");
  public static final Logger EFFECTS = LoggerFactory.getLogger("trainyard.commands.effects");
  public static final Logger WEBHOOKS = LoggerFactory.getLogger("trainyard.commands.webhooks");

  private CommandLog() {}
}

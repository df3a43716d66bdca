package dev.trainyard.common.boot;

import com.mongodb.ConnectionString;
import java.util.Base64;
import java.util.Locale;
import java.util.function.Predicate;
import org.springframework.boot.convert.DurationStyle;

/** The shapes a setting's value can have, each with what an operator is told it must be. */
public enum Rule {
  TEXT("any text", value -> true),
  PORT("a port number, 0 to 65535", value -> intIn(value, 0, 65_535)),
  COUNT("a whole number, 0 or more", value -> intIn(value, 0, Integer.MAX_VALUE)),
  POSITIVE_COUNT("a whole number, 1 or more", value -> intIn(value, 1, Integer.MAX_VALUE)),
  DURATION("a duration such as 500ms, 5s, 10m, 2h, 30d or PT5S", Rule::isDuration),
  INSTANT("a UTC time such as 2026-12-01T00:00:00Z", Rule::isInstant),
  BOOLEAN(
      "true or false", value -> value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false")),
  KEY_32_BYTES(
      "32 random bytes in base64 (e.g. `head -c32 /dev/urandom | base64`)", Rule::is32BytesBase64),
  SECRET("a secret of at least 32 characters", value -> value.length() >= 32),
  HOST_PORTS(
      "host:port pairs separated by commas, e.g. kafka-0:9092,kafka-1:9092", Rule::isHostPorts),
  MONGO_URI("a MongoDB connection string, mongodb://... or mongodb+srv://...", Rule::isMongoUri),
  TOPIC_PREFIX(
      "1 to 100 of the characters Kafka allows in a topic name (letters, digits, . _ -)",
      value -> dev.trainyard.common.topic.TopicNames.PREFIX.matcher(value).matches());

  private final String expected;
  private final Predicate<String> accepts;

  Rule(String expected, Predicate<String> accepts) {
    this.expected = expected;
    this.accepts = accepts;
  }

  public String expected() {
    return expected;
  }

  public boolean accepts(String value) {
    return accepts.test(value);
  }

  private static boolean isInstant(String value) {
    try {
      java.time.Instant.parse(value);
      return true;
    } catch (java.time.format.DateTimeParseException e) {
      return false;
    }
  }

  private static boolean intIn(String value, long min, long max) {
    try {
      long parsed = Long.parseLong(value);
      return parsed >= min && parsed <= max;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  private static boolean isDuration(String value) {
    try {
      return !DurationStyle.detectAndParse(value).isNegative();
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static boolean is32BytesBase64(String value) {
    try {
      return Base64.getDecoder().decode(value).length == 32;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static boolean isHostPorts(String value) {
    for (String address : value.split(",", -1)) {
      int colon = address.strip().lastIndexOf(':');
      if (colon <= 0 || !intIn(address.strip().substring(colon + 1), 1, 65_535)) {
        return false;
      }
    }
    return true;
  }

  private static boolean isMongoUri(String value) {
    if (!value.toLowerCase(Locale.ROOT).startsWith("mongodb")) {
      return false;
    }
    try {
      new ConnectionString(value);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}

package dev.trainyard.gateway.http;

import dev.trainyard.common.json.InvalidRequestException;
import dev.trainyard.common.json.StrictJson;
import dev.trainyard.common.json.Timestamps;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.queue.RepoRef;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * A merge-queue request body, read strictly ({@link StrictJson}), with the compound fields every
 * queue request has: {@code repo}, {@code targetBranch} and {@code pr.number}.
 */
public final class RequestBody extends StrictJson {
  public static final long MAX_UINT32 = 4_294_967_295L;
  public static final int MAX_URL = 2048;

  private RequestBody(JsonNode root) {
    super(root);
  }

  public static RequestBody parse(byte[] bytes) {
    return new RequestBody(readObject(bytes));
  }

  public QueueKey queueKey(String org) {
    return new QueueKey(org, repo(), branch("targetBranch"));
  }

  public RepoRef repo() {
    return repo(RepoRef::new);
  }

  /** {@code url}: a required non-empty string of at most {@value #MAX_URL} characters. */
  public String url() {
    return optionalString("url")
        .filter(u -> !u.isEmpty() && u.length() <= MAX_URL)
        .orElseThrow(
            () ->
                new InvalidRequestException(
                    "url is required: an absolute URL of at most " + MAX_URL + " characters"));
  }

  /**
   * {@code pr.number}: an integer 0..4294967295, also accepted as a string of decimal digits
   * because real CI actions send it that way (the one documented exception to strict types).
   */
  public long prNumber() {
    String error = "pr.number must be an integer between 0 and 4294967295";
    return prNumber(node("pr.number").orElseThrow(() -> new InvalidRequestException(error)), error);
  }

  /**
   * {@code dependsOn} (API.md §2): the PR numbers, each like {@code pr.number} (a digit string is
   * taken too), without repeats; empty when absent. At most {@code max}, and never {@code self}.
   */
  public Optional<List<Long>> dependsOn(long self, int max) {
    return node("dependsOn")
        .map(
            n -> {
              String error = "dependsOn must be an array of pull request numbers";
              if (!n.isArray()) {
                throw new InvalidRequestException(error);
              }
              if (n.size() > max) {
                throw new InvalidRequestException(
                    "dependsOn may name at most " + max + " pull requests, not " + n.size());
              }
              List<Long> numbers = new ArrayList<>();
              for (JsonNode item : n) {
                long number = prNumber(item, error + " (integers between 0 and 4294967295)");
                if (number == self) {
                  throw new InvalidRequestException(
                      "dependsOn must not name pull request " + self + " itself");
                }
                if (!numbers.contains(number)) {
                  numbers.add(number);
                }
              }
              return numbers;
            });
  }

  /** An RFC 3339 timestamp. */
  public Optional<Instant> optionalInstant(String path) {
    return optionalString(path)
        .map(
            text ->
                Timestamps.tryParseRfc3339(text)
                    .orElseThrow(
                        () ->
                            new InvalidRequestException(path + " must be an RFC 3339 timestamp")));
  }

  private static long prNumber(JsonNode n, String error) {
    BigInteger value;
    if (n.isIntegralNumber()) {
      value = n.bigIntegerValue();
    } else if (n.isString() && n.asString().matches("[0-9]{1,20}")) {
      value = new BigInteger(n.asString());
    } else {
      throw new InvalidRequestException(error);
    }
    if (value.signum() < 0 || value.compareTo(BigInteger.valueOf(MAX_UINT32)) > 0) {
      throw new InvalidRequestException(error);
    }
    return value.longValueExact();
  }
}

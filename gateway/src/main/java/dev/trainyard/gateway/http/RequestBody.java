package dev.trainyard.gateway.http;

import dev.trainyard.common.json.InvalidRequestException;
import dev.trainyard.common.json.StrictJson;
import dev.trainyard.common.queue.QueueKey;
import dev.trainyard.common.queue.RepoRef;
import java.math.BigInteger;
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
    JsonNode n = node("pr.number").orElseThrow(() -> new InvalidRequestException(error));
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

package dev.trainyard.common.flaky;

/**
 * How the gateway and the flaky-tests service talk: the gateway authenticates the caller, drops any
 * copy of {@link #ORG} or {@link #PROOF} the client sent, and forwards {@code /v1/flaky-tests/*}
 * with {@link #ORG} naming the caller's organization and {@link #PROOF} binding it to this one
 * request ({@link RequestProof}, under the secret both share). The service answers 401 to a request
 * without a valid, fresh, unused proof; it should still only be reachable from the gateway (a
 * cluster-internal Service).
 */
public final class FlakyTestsHeaders {
  /** The organization (slug) the gateway authenticated the request for. */
  public static final String ORG = "x-trainyard-org";

  /** The gateway's single-use proof of {@link #ORG} for this request ({@link RequestProof}). */
  public static final String PROOF = "x-trainyard-proof";

  /** The path prefix the gateway forwards. */
  public static final String PATH_PREFIX = "/v1/flaky-tests/";

  /** The upload route: its own body limit ({@link #MAX_UPLOAD_BYTES}). */
  public static final String UPLOAD_PATH = PATH_PREFIX + "upload";

  /** An upload's limit, 100 MiB: 413 beyond it. */
  public static final long MAX_UPLOAD_BYTES = 100L * 1024 * 1024;

  private FlakyTestsHeaders() {}
}

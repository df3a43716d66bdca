package dev.trainyard.flaky.store;

/**
 * The flaky-tests service's own collections (the queue owns {@code test_runs} in the same database,
 * so every name here starts with {@code flaky_}).
 */
public final class FlakyCollections {
  /** One document per (organization, test case): identity, status, bounded recent runs. */
  public static final String TEST_CASES = "flaky_test_cases";

  /** One document per (upload, test case): the run log, kept for the retention period. */
  public static final String TEST_RESULTS = "flaky_test_results";

  /** One document per upload: its metadata and whether its writes completed. */
  public static final String UPLOADS = "flaky_uploads";

  /** One document per (organization, repository): its settings and CODEOWNERS. */
  public static final String REPO_SETTINGS = "flaky_repo_settings";

  /** One document per accepted gateway proof: its nonce, kept while the proof is fresh. */
  public static final String SEEN_NONCES = "flaky_seen_nonces";

  private FlakyCollections() {}
}

package dev.trainyard.flaky.listing;

/**
 * Where a page starts, as a signed token: {@code d} is the direction ({@link #AFTER} the boundary
 * row, {@link #BEFORE} it, or the {@link #LAST} page counted from the end), {@code s}/{@code i} the
 * boundary row's key (status timestamp in epoch milliseconds, test id), {@code p} the page's index
 * in the walk.
 */
record PageToken(String d, long s, String i, int p) {
  static final String AFTER = "a";
  static final String BEFORE = "b";
  static final String LAST = "l";

  static PageToken after(Row row, int page) {
    return new PageToken(AFTER, row.sinceMillis(), row.testId(), page);
  }

  static PageToken before(Row row, int page) {
    return new PageToken(BEFORE, row.sinceMillis(), row.testId(), page);
  }

  static PageToken last(int page) {
    return new PageToken(LAST, 0, "", page);
  }

  /** The sort key of a listed row. */
  record Row(long sinceMillis, String testId) {
    /**
     * A key right after this row in list order (same timestamp, a test id just above it): "before
     * it" then includes this row.
     */
    Row justAfter() {
      return new Row(sinceMillis, testId + "\u0000");
    }
  }
}

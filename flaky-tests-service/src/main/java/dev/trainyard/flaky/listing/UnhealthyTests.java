package dev.trainyard.flaky.listing;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Sorts;
import dev.trainyard.flaky.cases.TestCase;
import dev.trainyard.flaky.cases.TestCaseStore;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import org.bson.Document;
import org.bson.conversions.Bson;

/**
 * The listing's queries, all keyset: order (status timestamp descending, test id ascending) over
 * the index (org, repo, status.value, status.since desc, testId); a page is "the next n rows after
 * (or before) a boundary row", never "skip n".
 */
final class UnhealthyTests {
  private static final Bson FORWARD =
      Sorts.orderBy(Sorts.descending("status.since"), Sorts.ascending("testId"));
  private static final Bson BACKWARD =
      Sorts.orderBy(Sorts.ascending("status.since"), Sorts.descending("testId"));
  private final MongoCollection<Document> cases;
  private final Bson filter;

  UnhealthyTests(MongoCollection<Document> cases, String org, String repo, String status) {
    this.cases = cases;
    this.filter =
        Filters.and(
            Filters.eq("org", org), Filters.eq("repo", repo), Filters.eq("status.value", status));
  }

  long count() {
    return cases.countDocuments(filter);
  }

  /** Up to {@code limit} rows from the start. */
  List<TestCase> first(int limit) {
    return read(cases.find(filter).sort(FORWARD).limit(limit));
  }

  /** Up to {@code limit} rows after {@code row}, in list order. */
  List<TestCase> after(PageToken.Row row, int limit) {
    return read(cases.find(Filters.and(filter, after(row))).sort(FORWARD).limit(limit));
  }

  /** Up to {@code limit} rows right before {@code row}, nearest first (reverse list order). */
  List<TestCase> before(PageToken.Row row, int limit) {
    return read(cases.find(Filters.and(filter, before(row))).sort(BACKWARD).limit(limit));
  }

  /** Up to {@code limit} rows from the end, last first (reverse list order). */
  List<TestCase> last(int limit) {
    return read(cases.find(filter).sort(BACKWARD).limit(limit));
  }

  static Bson after(PageToken.Row row) {
    Date since = new Date(row.sinceMillis());
    return Filters.or(
        Filters.lt("status.since", since),
        Filters.and(Filters.eq("status.since", since), Filters.gt("testId", row.testId())));
  }

  static Bson before(PageToken.Row row) {
    Date since = new Date(row.sinceMillis());
    return Filters.or(
        Filters.gt("status.since", since),
        Filters.and(Filters.eq("status.since", since), Filters.lt("testId", row.testId())));
  }

  static PageToken.Row key(TestCase tc) {
    return new PageToken.Row(tc.status().since().toEpochMilli(), tc.testId());
  }

  private static List<TestCase> read(Iterable<Document> docs) {
    List<TestCase> rows = new ArrayList<>();
    for (Document doc : docs) {
      rows.add(TestCaseStore.fromDocument(doc));
    }
    return rows;
  }
}

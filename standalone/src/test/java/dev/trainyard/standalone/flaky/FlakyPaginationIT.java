package dev.trainyard.standalone.flaky;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.json.Timestamps;
import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.OwnStack;
import dev.trainyard.standalone.support.TestStack;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Paging through 1,000 flaky tests with {@code next} and back with {@code prev}: every test is
 * visited exactly once, in the documented order (status timestamp descending, then id), also while
 * uploads add new flaky tests during the walk; {@code last_page_token} lands on the last page.
 */
class FlakyPaginationIT extends OwnStack {
  private static final int TESTS = 1000;
  private static final int PAGE = 7;
  private final String repo = Api.uniqueRepo();
  private final Set<String> original = new HashSet<>();
  private int uploads;
  private Api api;

  @BeforeAll
  void thousandFlakyTests() {
    api = stack.api();
    for (int batch = 0; batch < 10; batch++) {
      upload(100);
    }
    JsonNode all = list(100, "");
    assertThat(all.get("page").get("total_rows").asInt()).isEqualTo(TESTS);
    String token = "";
    do {
      JsonNode page = list(100, token);
      page.get("tests").forEach(t -> original.add(t.get("id").asString()));
      token = page.get("page").get("next_page_token").asString();
    } while (!token.isEmpty());
    assertThat(original).hasSize(TESTS);
  }

  @Test
  void forwardWithNextVisitsEachTestOnceInOrderWhileUploadsArrive() {
    List<JsonNode> seen = new ArrayList<>();
    String token = "";
    int expectedIndex = 0;
    JsonNode page;
    do {
      page = list(PAGE, token);
      assertThat(page.get("page").get("page_index").asInt()).isEqualTo(expectedIndex);
      assertThat(page.get("page").get("prev_page_token").asString().isEmpty())
          .isEqualTo(expectedIndex == 0);
      page.get("tests").forEach(seen::add);
      if (expectedIndex % 40 == 5) {
        upload(3); // new flaky tests while the walk goes on
      }
      token = page.get("page").get("next_page_token").asString();
      expectedIndex++;
    } while (!token.isEmpty());

    List<String> ids = seen.stream().map(t -> t.get("id").asString()).toList();
    assertThat(new HashSet<>(ids)).hasSize(ids.size()); // nobody twice
    assertThat(ids).containsAll(original);
    assertInListOrder(seen);
  }

  @Test
  void backwardWithPrevFromTheLastPageVisitsEachTestOnceDownToPageZero() {
    JsonNode first = list(PAGE, "");
    int totalPages = first.get("page").get("total_pages").asInt();
    JsonNode page = list(PAGE, first.get("page").get("last_page_token").asString());
    assertThat(page.get("page").get("page_index").asInt()).isEqualTo(totalPages - 1);
    assertThat(page.get("page").get("next_page_token").asString()).isEmpty();
    long total = page.get("page").get("total_rows").asLong();
    assertThat(page.get("tests").size()).isEqualTo((int) (total - (long) (totalPages - 1) * PAGE));

    List<JsonNode> seen = new ArrayList<>();
    int index = totalPages - 1;
    int steps = 0;
    while (true) {
      List<JsonNode> onPage = new ArrayList<>();
      page.get("tests").forEach(onPage::add);
      seen.addAll(0, onPage);
      String prev = page.get("page").get("prev_page_token").asString();
      if (prev.isEmpty()) {
        break;
      }
      if (steps++ % 40 == 5) {
        upload(3); // arrivals at the front while walking back towards it
      }
      page = list(PAGE, prev);
      int now = page.get("page").get("page_index").asInt();
      assertThat(now).isEqualTo(Math.max(index - 1, now == 0 ? 0 : 1));
      index = now;
      // every page but the first one reached is full
      if (!page.get("page").get("prev_page_token").asString().isEmpty()) {
        assertThat(page.get("tests")).hasSize(PAGE);
      }
    }
    assertThat(page.get("page").get("page_index").asInt()).isZero();

    List<String> ids = seen.stream().map(t -> t.get("id").asString()).toList();
    assertThat(new HashSet<>(ids)).hasSize(ids.size());
    assertThat(ids).containsAll(original);
    assertInListOrder(seen);
    // and forward again from page 0 shows the same first page
    assertThat(list(PAGE, "").get("tests").get(0).get("id").asString()).isEqualTo(ids.get(0));
  }

  @Test
  void walkingNextThenPrevReturnsTheSamePages() {
    JsonNode p0 = list(PAGE, "");
    JsonNode p1 = list(PAGE, p0.get("page").get("next_page_token").asString());
    JsonNode p2 = list(PAGE, p1.get("page").get("next_page_token").asString());

    JsonNode back1 = list(PAGE, p2.get("page").get("prev_page_token").asString());
    JsonNode back0 = list(PAGE, back1.get("page").get("prev_page_token").asString());

    assertThat(back1.get("tests")).isEqualTo(p1.get("tests"));
    assertThat(back1.get("page").get("page_index").asInt()).isEqualTo(1);
    assertThat(back0.get("tests")).isEqualTo(p0.get("tests"));
    assertThat(back0.get("page").get("page_index").asInt()).isZero();
    assertThat(back0.get("page").get("prev_page_token").asString()).isEmpty();
  }

  private static void assertInListOrder(List<JsonNode> rows) {
    for (int i = 1; i < rows.size(); i++) {
      Instant before = Timestamps.parse(rows.get(i - 1).get("status").get("timestamp").asString());
      Instant after = Timestamps.parse(rows.get(i).get("status").get("timestamp").asString());
      String beforeId = rows.get(i - 1).get("id").asString();
      String afterId = rows.get(i).get("id").asString();
      assertThat(before.isAfter(after) || (before.equals(after) && beforeId.compareTo(afterId) < 0))
          .as("row %d (%s %s) before row %d (%s %s)", i - 1, before, beforeId, i, after, afterId)
          .isTrue();
    }
  }

  /** {@code count} new tests that passed on a retry: flaky from their first upload. */
  private void upload(int count) {
    int n = uploads++;
    List<String> cases = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      cases.add("test" + n + "_" + i + ":R");
    }
    Multipart form =
        Multipart.upload(repo, "sha" + n, "main", null)
            .file("file", "TEST-batch" + n + ".xml", Reports.surefire("com.acme.Batch" + n, cases));
    Api.Response r = form.uploadWith(api);
    assertThat(r.status()).as(r.body()).isEqualTo(200);
  }

  private JsonNode list(int size, String token) {
    Api.Response r =
        api.post(
            "/v1/flaky-tests/list-unhealthy-tests",
            FlakyTestsIT.listBody(repo, TestStack.ORG, "FLAKY", size, token));
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    return r.json();
  }
}

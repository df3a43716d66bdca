package dev.trainyard.flaky.listing;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.model.Filters;
import dev.trainyard.common.token.SignedToken;
import dev.trainyard.flaky.cases.QuarantineSetting;
import dev.trainyard.flaky.cases.TestCase;
import dev.trainyard.flaky.cases.TestCaseStore;
import dev.trainyard.flaky.classify.Health;
import dev.trainyard.flaky.classify.Status;
import dev.trainyard.flaky.repo.Repo;
import dev.trainyard.flaky.repo.RepoSettingsStore;
import dev.trainyard.flaky.store.WireStore;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.mongodb.core.MongoTemplate;

/**
 * Pages whose rows left between two requests: no dead end (an empty page still leads somewhere),
 * and no unbounded page. Against an in-memory document store.
 */
class ListHandlerPagingTest {
  private static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");
  private static final String ORG = "acme";
  private static final Repo REPO = new Repo("github.com", "acme", "rocket");
  private static final byte[] SECRET =
      "a-test-secret-of-at-least-32-characters".getBytes(StandardCharsets.UTF_8);
  private static final String SCOPE = String.join("|", "unhealthy", ORG, REPO.key(), "FLAKY", "2");

  private WireStore store;
  private TestCaseStore cases;
  private ListHandler handler;

  @BeforeEach
  void start() {
    store = new WireStore();
    MongoTemplate mongo = store.mongo();
    cases = new TestCaseStore(mongo);
    handler =
        new ListHandler(
            cases, new RepoSettingsStore(mongo), SECRET, "http://x", InstantSource.fixed(NOW));
    for (int i = 1; i <= 5; i++) { // t1 newest ... t5 oldest
      cases.save(
          List.of(
              new TestCaseStore.Write(flaky("t" + i, NOW.minus(Duration.ofMinutes(i))), "w", null)),
          NOW);
    }
  }

  @AfterEach
  void stop() {
    store.close();
  }

  private static TestCase flaky(String id, Instant since) {
    return new TestCase(
        ORG,
        REPO.key(),
        id,
        id,
        null,
        null,
        null,
        "",
        new Status(Health.FLAKY, "because", since),
        List.of(),
        QuarantineSetting.UNSPECIFIED,
        0,
        null,
        1);
  }

  private Map<String, Object> page(String token) {
    return handler.page(
        ORG,
        REPO,
        "flaky",
        2,
        token.isEmpty() ? null : SignedToken.decode(token, PageToken.class, SECRET, SCOPE, "t"),
        SCOPE);
  }

  @SuppressWarnings("unchecked")
  private static List<String> ids(Map<String, Object> page) {
    return ((List<Map<String, Object>>) page.get("tests"))
        .stream().map(t -> (String) t.get("id")).toList();
  }

  @SuppressWarnings("unchecked")
  private static String token(Map<String, Object> page, String which) {
    return (String) ((Map<String, Object>) page.get("page")).get(which);
  }

  private void leave(String... ids) {
    cases.collection().deleteMany(Filters.in("testId", List.of(ids)));
  }

  @Test
  void anEmptyNextPageStillLeadsBackToTheRowsBeforeIt() {
    Map<String, Object> first = page("");
    Map<String, Object> second = page(token(first, "next_page_token"));
    assertThat(ids(second)).containsExactly("t3", "t4");
    leave("t5"); // the rows of the next page became healthy meanwhile

    Map<String, Object> empty = page(token(second, "next_page_token"));

    assertThat(ids(empty)).isEmpty();
    assertThat(token(empty, "next_page_token")).isEmpty();
    assertThat(ids(page(token(empty, "prev_page_token")))).containsExactly("t3", "t4");
  }

  @Test
  void anEmptyPrevPageIsTheFirstPage() {
    Map<String, Object> first = page("");
    Map<String, Object> second = page(token(first, "next_page_token"));
    leave("t1", "t2");

    Map<String, Object> back = page(token(second, "prev_page_token"));

    assertThat(ids(back)).containsExactly("t3", "t4");
    assertThat(token(back, "next_page_token")).isNotEmpty();
    assertThat(token(back, "prev_page_token")).isEmpty();
    assertThat(ids(page(token(back, "next_page_token")))).containsExactly("t5");
  }

  @Test
  void theLastPageAfterEveryRowLeftIsEmpty() {
    Map<String, Object> first = page("");
    String last = token(first, "last_page_token");
    leave("t1", "t2", "t3", "t4", "t5");

    Map<String, Object> lastPage = page(last);

    assertThat(ids(lastPage)).isEmpty();
    assertThat(((Map<?, ?>) lastPage.get("page")).get("total_rows")).isEqualTo(0L);
  }
}

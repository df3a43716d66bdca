package dev.trainyard.standalone.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.gateway.auth.Access;
import dev.trainyard.gateway.auth.SecuredRoutes;
import dev.trainyard.standalone.support.Api;
import dev.trainyard.standalone.support.TestStack;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.bson.Document;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.data.mongodb.core.ReactiveMongoTemplate;
import org.springframework.data.mongodb.core.query.Query;
import org.springframework.http.HttpMethod;

/**
 * Walks every registered route with every other spelling of its path (API.md §1 Routing):
 * percent-encoded letters, {@code ;x} in each segment, {@code //}, {@code /./}, {@code /../}, upper
 * case, a trailing slash. Without a token, and with an ordinary API token against the admin routes,
 * each answers 401 or 404 — never 2xx or 5xx — or a redirect into the dashboard, which demands a
 * session (a variable segment written in upper case is another value, not another spelling), and
 * nothing is created.
 */
class RouteSpellingIT {
  private static final Set<Integer> REFUSED = Set.of(401, 404);
  private static TestStack stack;
  private static final String GITHUB_WEBHOOK = "/v1/scm/github/webhook";
  private static List<SecuredRoutes.Route> routes;

  /** The public links events and the flaky listing carry: redirects into the dashboard. */
  private static final List<String> LINKS =
      List.of("/{org}/merge-queue/{*rest}", "/{org}/flaky-tests/test/{testId}");

  @BeforeAll
  static void stack() {
    stack = TestStack.shared();
    routes = stack.services().gatewayContext().getBean(SecuredRoutes.Table.class).routes();
  }

  @Test
  void
      adminRoutesDemandTheAdminTokenApiRoutesAnOrganizationsAndOnlyHealthAndTheDescriptionArePublic() {
    // ... and GitHub's webhook, which authenticates each delivery by its signature instead; the
    // description is public and read-only (GET)
    assertThat(routes).hasSizeGreaterThan(20);
    assertThat(routes).allSatisfy(r -> assertThat(r.access()).isNotNull());
    assertThat(routes)
        .filteredOn(r -> r.path().startsWith("/admin/"))
        .isNotEmpty()
        .allSatisfy(r -> assertThat(r.access()).isEqualTo(Access.ADMIN));
    List<String> description =
        List.of("/v1/openapi.yaml", "/v1/openapi.json", "/ui/api", "/ui/api/{asset}");
    assertThat(routes)
        .filteredOn(
            r ->
                r.path().startsWith("/v1/")
                    && !r.path().equals(GITHUB_WEBHOOK)
                    && !description.contains(r.path()))
        .allSatisfy(r -> assertThat(r.access()).isEqualTo(Access.ORGANIZATION));
    assertThat(routes)
        .filteredOn(r -> r.access() == Access.PUBLIC)
        .extracting(SecuredRoutes.Route::path)
        .containsExactlyInAnyOrder(
            "/actuator/health",
            "/actuator/health/liveness",
            "/actuator/health/readiness",
            GITHUB_WEBHOOK,
            "/v1/openapi.yaml",
            "/v1/openapi.json",
            "/ui/api",
            "/ui/api/{asset}",
            "/ui/sign-in",
            "/ui/sign-in",
            "/ui/sign-in/{provider}",
            "/ui/sign-in/{provider}/callback",
            "/ui/static/{asset}",
            LINKS.get(0),
            LINKS.get(1));
    // every other dashboard page and action needs a session
    assertThat(routes)
        .filteredOn(r -> r.path().startsWith("/ui/") && r.access() != Access.PUBLIC)
        .hasSizeGreaterThan(10)
        .allSatisfy(r -> assertThat(r.access()).isEqualTo(Access.SESSION));
    assertThat(routes)
        .filteredOn(r -> description.contains(r.path()))
        .allSatisfy(r -> assertThat(r.method()).isEqualTo(HttpMethod.GET));
  }

  @Test
  void noOtherSpellingOfAnyRouteGetsPastItsAuthentication() {
    Api anonymous = stack.api().withToken(null);
    Api ordinary = stack.api();
    long organizations = count("organizations");
    long tokens = count("api_tokens");
    long sessions = count("ui_sessions");
    List<String> seen = new ArrayList<>();

    for (SecuredRoutes.Route route : routes) {
      String path = example(route);
      for (String spelling : spellings(path)) {
        assertRefused(anonymous, route, spelling);
        if (route.access() == Access.ADMIN) {
          assertRefused(ordinary, route, spelling);
        } else if (route.access() == Access.ORGANIZATION) {
          // the organization's own token reaches no handler through another spelling either
          assertThat(send(ordinary, route.method(), spelling).status())
              .as("%s with a token", spelling)
              .isEqualTo(404);
        }
        seen.add(spelling);
      }
      // the canonical path still demands the route's own level
      // (GitHub's webhook: the signature this request lacks)
      assertThat(send(anonymous, route.method(), path).status())
          .as(route.method() + " " + path)
          .isEqualTo(canonicalAnswer(route));
      if (route.access() == Access.ADMIN) {
        assertThat(send(ordinary, route.method(), path).status()).as(path).isEqualTo(401);
      }
    }

    assertThat(seen).hasSizeGreaterThan(routes.size() * 15);
    assertThat(count("organizations")).as("no organization was created").isEqualTo(organizations);
    assertThat(count("api_tokens")).as("no token was created or revoked").isEqualTo(tokens);
    assertThat(count("ui_sessions")).as("no session was created").isEqualTo(sessions);
    assertThat(ordinary.post("/v1/getQueue", Api.body(Api.uniqueRepo(), "")).status())
        .as("the ordinary token still works")
        .isEqualTo(404);
  }

  @Test
  void theSpellingsThatOnceOpenedTheAdminApiAreRefused() {
    Api anonymous = stack.api().withToken(null);

    assertThat(anonymous.post("/%61dmin/v1/createApiToken", "{\"org\":\"acme-org\"}").status())
        .isEqualTo(404);
    assertThat(anonymous.post("/admin/v1;x/createOrganization", "{\"slug\":\"x1\"}").status())
        .isEqualTo(404);
    Api.Response semicolon = anonymous.post("/v1;x/getQueue", Api.body("r", ""));
    assertThat(semicolon.status()).isEqualTo(404);
    assertThat(semicolon.body()).isEqualTo("no endpoint has this path\n");
  }

  /** A path of {@code route} with a value in each variable. */
  static String example(SecuredRoutes.Route route) {
    String rest = route.path().startsWith("/ui/actions/") ? "main/pause" : "main";
    return route
        .path()
        .replace("{operation}", "list-unhealthy-tests")
        .replace("{asset}", route.path().startsWith("/ui/static/") ? "app.css" : "api.js")
        .replace(
            "{org}/merge-queue/{*rest}", TestStack.ORG + "/merge-queue/github.com/acme/walk/main/1")
        .replace("{org}", TestStack.ORG)
        .replace("{host}/{owner}/{name}", "github.com/acme/walk")
        .replace("{*rest}", rest)
        .replace("{testId}", "6f1c2b3a-0000-4000-8000-000000000001")
        .replace("{action}", "redeliver")
        .replace("{provider}", "oidc");
  }

  /**
   * What the canonical path answers without a token or session: a public page 200 (the sign-in form
   * posted empty 401), a link 303 into the dashboard, a dashboard page or action 303 to the sign-in
   * page (its event stream 401), anything else 401.
   */
  private static int canonicalAnswer(SecuredRoutes.Route route) {
    if (route.path().equals(GITHUB_WEBHOOK)) {
      return 401;
    }
    if (route.path().equals("/ui/sign-in") && route.method() == HttpMethod.POST) {
      return 415; // a JSON body is no sign-in form: refused before it is read
    }
    if (route.path().startsWith("/ui/sign-in/{provider}")) {
      return 404; // this stack offers no identity provider (SingleSignOnIT's does)
    }
    return switch (route.access()) {
      case PUBLIC ->
          LINKS.contains(route.path()) ? 303 : route.method() == HttpMethod.POST ? 401 : 200;
      case SESSION -> route.path().equals("/ui/events") ? 401 : 303;
      default -> 401;
    };
  }

  private static void assertRefused(Api api, SecuredRoutes.Route route, String spelling) {
    Api.Response r = send(api, route.method(), spelling);
    // a redirect into the dashboard reads and changes nothing, and where it leads a session is
    // needed: the sign-in page, or a link's page (/UI/flaky-tests/test/… is the link of an
    // organization named "UI")
    String location = r.headers().firstValue("location").orElse("");
    boolean intoDashboard = r.status() == 303 && location.startsWith("/ui/");
    assertThat(REFUSED.contains(r.status()) || intoDashboard)
        .as(
            "%s %s (token: %s) -> %d %s",
            route.method(), spelling, api.token() != null, r.status(), r.body())
        .isTrue();
  }

  private static Api.Response send(Api api, HttpMethod method, String path) {
    String body =
        "{\"repo\":{\"host\":\"github.com\",\"owner\":\"acme\",\"name\":\"walk\"},"
            + "\"targetBranch\":\"main\",\"pr\":{\"number\":1},\"slug\":\"walked-in\","
            + "\"org\":\""
            + TestStack.ORG
            + "\",\"token\":\""
            + stack.api().token()
            + "\",\"url\":\"http://127.0.0.1:9/hook\"}";
    HttpRequest.Builder request = api.request(path);
    return api.send(
        method == HttpMethod.GET
            ? request.GET()
            : request.POST(HttpRequest.BodyPublishers.ofString(body)));
  }

  /** Every other way of writing {@code path} that a lenient router might take for it. */
  static List<String> spellings(String path) {
    String[] segments = path.substring(1).split("/");
    List<String> out = new ArrayList<>();
    for (int i = 0; i < segments.length; i++) {
      out.add(withSegment(segments, i, percentEncodedFirstLetter(segments[i])));
      out.add(withSegment(segments, i, segments[i] + ";x"));
      out.add(withSegment(segments, i, segments[i].toUpperCase(Locale.ROOT)));
      out.add(withSegment(segments, i, "./" + segments[i]));
      out.add(withSegment(segments, i, "x/../" + segments[i]));
      out.add(withSegment(segments, i, "/" + segments[i]));
    }
    out.add("/" + path);
    out.add(path + "/");
    out.add(path + "/.");
    out.add(path.replace("/v1/", "/v1/../v1/"));
    return out.stream().filter(p -> !p.equals(path)).distinct().toList();
  }

  private static String withSegment(String[] segments, int index, String replacement) {
    String[] copy = segments.clone();
    copy[index] = replacement;
    return "/" + String.join("/", copy);
  }

  private static String percentEncodedFirstLetter(String segment) {
    return String.format("%%%02X", (int) segment.charAt(0)) + segment.substring(1);
  }

  private static long count(String collection) {
    ReactiveMongoTemplate mongo =
        stack.services().gatewayContext().getBean(ReactiveMongoTemplate.class);
    return mongo.count(new Query(), Document.class, collection).block();
  }
}

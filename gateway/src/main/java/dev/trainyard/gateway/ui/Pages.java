package dev.trainyard.gateway.ui;

import dev.trainyard.common.boot.Outage;
import dev.trainyard.common.json.InvalidRequestException;
import dev.trainyard.gateway.auth.Caller;
import dev.trainyard.gateway.auth.Permission;
import dev.trainyard.gateway.auth.RouteGuard;
import dev.trainyard.gateway.auth.Sessions;
import dev.trainyard.gateway.http.ApiException;
import dev.trainyard.gateway.http.SecurityHeaders;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.HandlerFilterFunction;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.thymeleaf.context.Context;
import org.thymeleaf.spring6.SpringTemplateEngine;
import org.thymeleaf.templatemode.TemplateMode;
import org.thymeleaf.templateresolver.ClassLoaderTemplateResolver;
import reactor.core.publisher.Mono;

/**
 * Renders the dashboard's pages (Thymeleaf templates under {@code ui/templates/}, escaped by
 * default; every link is built in Java) with the headers API.md §8 demands: a CSP without inline
 * scripts or styles, {@code nosniff}, {@code Referrer-Policy: same-origin}, no framing, no caching.
 */
@Component
public class Pages {
  static final MediaType HTML = new MediaType(MediaType.TEXT_HTML, StandardCharsets.UTF_8);

  private final SpringTemplateEngine engine = new SpringTemplateEngine();

  public Pages() {
    ClassLoaderTemplateResolver templates = new ClassLoaderTemplateResolver();
    templates.setPrefix("ui/templates/");
    templates.setSuffix(".html");
    templates.setTemplateMode(TemplateMode.HTML);
    templates.setCharacterEncoding("UTF-8");
    templates.setCacheable(true);
    engine.setTemplateResolver(templates);
    engine.setEnableSpringELCompiler(true);
  }

  /** The page {@code template} for this request's session (if any) with {@code model}. */
  public Mono<ServerResponse> render(
      ServerRequest request, HttpStatusCode status, String template, Map<String, Object> model) {
    return render(request, ServerResponse.status(status), template, model);
  }

  private Mono<ServerResponse> render(
      ServerRequest request,
      ServerResponse.BodyBuilder response,
      String template,
      Map<String, Object> model) {
    Map<String, Object> all = new HashMap<>(model);
    Sessions.Session session = request.exchange().getAttribute(RouteGuard.SESSION_ATTRIBUTE);
    all.put("session", session);
    all.put("csrf", session == null ? "" : session.csrf());
    Caller caller = Caller.of(request.exchange());
    all.put("auditable", caller != null && caller.role().may(Permission.ADMINISTER));
    // as sent (names percent-encoded), so that a form's "back" leads to this very page
    all.put("path", request.exchange().getRequest().getURI().getRawPath());
    // one key a page: a form sent twice (a double click) is applied once (DashboardActions)
    all.put("formKey", UUID.randomUUID().toString());
    all.putIfAbsent("live", "");
    String html = engine.process(template, new Context(Locale.ENGLISH, all));
    return secured(response).contentType(HTML).bodyValue(html);
  }

  public Mono<ServerResponse> render(
      ServerRequest request, String template, Map<String, Object> model) {
    return render(request, HttpStatus.OK, template, model);
  }

  /** A page saying what went wrong, with the status the API gives the same mistake. */
  public Mono<ServerResponse> error(ServerRequest request, HttpStatusCode status, String message) {
    return error(request, status, message, 0);
  }

  private Mono<ServerResponse> error(
      ServerRequest request, HttpStatusCode status, String message, long retryAfterSeconds) {
    ServerResponse.BodyBuilder response = ServerResponse.status(status);
    if (status.value() == 429 || status.value() == 503) {
      response.header(
          HttpHeaders.RETRY_AFTER, Long.toString(retryAfterSeconds > 0 ? retryAfterSeconds : 5));
    }
    return render(
        request,
        response,
        "error",
        Map.of("title", status.value() == 404 ? "Not found" : "Not done", "message", message));
  }

  /** After a POST: back to a page (a path of this site only). */
  public static Mono<ServerResponse> seeOther(String path) {
    return redirect(path).build();
  }

  /** A 303 to a path of this site, to add to (a cookie). */
  static ServerResponse.BodyBuilder redirect(String path) {
    return secured(ServerResponse.seeOther(URI.create(SafePaths.sameSite(path, "/ui/"))));
  }

  static ServerResponse.BodyBuilder secured(ServerResponse.BodyBuilder response) {
    return response.headers(SecurityHeaders::addPageHeaders);
  }

  /**
   * Wraps every dashboard route: a client's mistake (and the guard's 403 or 429) becomes a page
   * with the status and the sentence; a store or broker outage a 503 page. Anything else stays a
   * bug for the error handler.
   */
  public HandlerFilterFunction<ServerResponse, ServerResponse> errors() {
    return (request, next) ->
        next.handle(request)
            .onErrorResume(
                ApiException.class,
                e -> error(request, e.status(), e.getMessage(), e.retryAfterSeconds()))
            .onErrorResume(
                InvalidRequestException.class,
                e -> error(request, HttpStatus.BAD_REQUEST, e.getMessage()))
            .onErrorResume(
                Outage::isOutage,
                e ->
                    error(
                        request,
                        HttpStatus.SERVICE_UNAVAILABLE,
                        "trainyard cannot reach its message broker or store right now; retry"
                            + " later"));
  }
}

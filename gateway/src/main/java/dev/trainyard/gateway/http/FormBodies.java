package dev.trainyard.gateway.http;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;
import org.springframework.web.reactive.function.server.ServerRequest;
import reactor.core.publisher.Mono;

/**
 * The dashboard's HTML forms ({@code application/x-www-form-urlencoded}), read as they stream
 * within a byte limit and a field limit, their bytes counted against a {@link HeldBodies} budget.
 * Spring's own form reader takes up to the codec's 20 MiB and turns every {@code &} into a map
 * entry, so a few bodies of empty fields could take gigabytes of a gateway; a form here is refused
 * with 413 at its limit (declared or streamed) and 400 past its field count, before it is parsed
 * whole.
 */
public final class FormBodies {
  /** Where the form read for a request is kept, for the handler after the guard. */
  public static final String ATTRIBUTE = "trainyard.form";

  private final HeldBodies bodies;
  private final long maxBytes;
  private final int maxFields;

  public FormBodies(HeldBodies bodies, long maxBytes, int maxFields) {
    this.bodies = bodies;
    this.maxBytes = maxBytes;
    this.maxFields = maxFields;
  }

  /**
   * The request's form, read once and kept for {@link #submitted}.
   *
   * @throws ApiException (as the Mono's error) 415 for another content type, 413 past the byte
   *     limit, 400 past the field limit or for a malformed escape, 408 and 503 as {@link
   *     HeldBodies#hold} has them
   */
  public Mono<MultiValueMap<String, String>> read(ServerRequest request) {
    MediaType type = request.headers().contentType().orElse(null);
    if (type == null || !MediaType.APPLICATION_FORM_URLENCODED.isCompatibleWith(type)) {
      return Mono.error(
          new ApiException(
              HttpStatus.UNSUPPORTED_MEDIA_TYPE,
              "a form must be sent as application/x-www-form-urlencoded"));
    }
    if (request.headers().contentLength().orElse(-1) > maxBytes) {
      return Mono.error(HeldBodies.tooLarge(maxBytes));
    }
    return bodies.hold(
        request.bodyToFlux(DataBuffer.class),
        maxBytes,
        chunk -> {},
        bytes -> {
          MultiValueMap<String, String> form = parse(bytes, maxFields);
          request.exchange().getAttributes().put(ATTRIBUTE, form);
          return Mono.just(form);
        });
  }

  /** The form {@link #read} took from this request (the guard reads it before the handler runs). */
  public static Mono<MultiValueMap<String, String>> submitted(ServerRequest request) {
    MultiValueMap<String, String> form = request.exchange().getAttribute(ATTRIBUTE);
    return form == null
        ? Mono.error(new IllegalStateException("no form was read for " + request.path()))
        : Mono.just(form);
  }

  /**
   * {@code a=1&b=x+y} as fields; empty pairs ({@code &&}) are skipped, a field without {@code =}
   * has the empty value.
   *
   * @throws ApiException 400 for more than {@code maxFields} fields or a malformed escape
   */
  static MultiValueMap<String, String> parse(byte[] body, int maxFields) {
    MultiValueMap<String, String> form = new LinkedMultiValueMap<>();
    String text = new String(body, StandardCharsets.UTF_8);
    int fields = 0;
    int start = 0;
    while (start <= text.length()) {
      int end = text.indexOf('&', start);
      if (end < 0) {
        end = text.length();
      }
      if (end > start) {
        if (++fields > maxFields) {
          throw ApiException.badRequest("a form may have at most " + maxFields + " fields");
        }
        String pair = text.substring(start, end);
        int eq = pair.indexOf('=');
        form.add(
            decode(eq < 0 ? pair : pair.substring(0, eq)),
            eq < 0 ? "" : decode(pair.substring(eq + 1)));
      }
      start = end + 1;
    }
    return form;
  }

  private static String decode(String part) {
    try {
      return URLDecoder.decode(part, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest("the form has a malformed %-escape");
    }
  }
}

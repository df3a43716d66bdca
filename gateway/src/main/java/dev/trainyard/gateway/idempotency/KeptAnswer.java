package dev.trainyard.gateway.idempotency;

import dev.trainyard.gateway.http.ApiException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;
import org.bson.Document;
import org.bson.types.Binary;
import org.reactivestreams.Publisher;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseCookie;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import org.springframework.util.MultiValueMap;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The answer an idempotency key keeps: status, content type and body; for an error (4xx), its
 * sentence, which the error handler writes again as it wrote it the first time.
 */
record KeptAnswer(int status, String contentType, byte[] body) {

  /** Worth keeping: the request had its effect, or none and never will (429 and 5xx: retry). */
  boolean isFinal() {
    return status < 500 && status != 429;
  }

  /** The answer an error becomes, or null when it is not the client's to keep (a 5xx, a 429). */
  static KeptAnswer of(Throwable error) {
    if (error instanceof ApiException api) {
      KeptAnswer answer =
          new KeptAnswer(
              api.status().value(),
              MediaType.TEXT_PLAIN_VALUE,
              String.valueOf(api.getMessage()).getBytes(StandardCharsets.UTF_8));
      return answer.isFinal() ? answer : null;
    }
    return null;
  }

  /** The kept answer again, marked as replayed; 409 naming why when the answer was not kept. */
  static Mono<ServerResponse> replay(Document kept, ServerWebExchange exchange) {
    exchange.getResponse().getHeaders().set(IdempotencyKeys.REPLAYED_HEADER, "true");
    String withheld = kept.getString("withheld");
    if (withheld != null) {
      return Mono.error(ApiException.conflict(withheld));
    }
    int status = kept.getInteger("status");
    byte[] body = kept.get("body", Binary.class).getData();
    if (status >= 400) {
      return Mono.error(
          new ApiException(HttpStatus.valueOf(status), new String(body, StandardCharsets.UTF_8)));
    }
    return ServerResponse.status(status)
        .contentType(MediaType.parseMediaType(kept.getString("contentType")))
        .bodyValue(body);
  }

  /** {@code response}, which hands what it wrote to {@code keep} once written. */
  static ServerResponse recording(ServerResponse response, Function<KeptAnswer, Mono<Void>> keep) {
    return new ServerResponse() {
      @Override
      public HttpStatusCode statusCode() {
        return response.statusCode();
      }

      @Override
      public HttpHeaders headers() {
        return response.headers();
      }

      @Override
      public MultiValueMap<String, ResponseCookie> cookies() {
        return response.cookies();
      }

      @Override
      public Mono<Void> writeTo(ServerWebExchange exchange, Context context) {
        Recorder recorder = new Recorder(exchange.getResponse());
        return response
            .writeTo(exchange.mutate().response(recorder).build(), context)
            .then(Mono.defer(() -> keep.apply(recorder.answer(response))));
      }
    };
  }

  /** Copies the body on its way out. */
  private static final class Recorder extends ServerHttpResponseDecorator {
    private final ByteArrayOutputStream body = new ByteArrayOutputStream();

    Recorder(ServerHttpResponse delegate) {
      super(delegate);
    }

    @Override
    public Mono<Void> writeWith(Publisher<? extends DataBuffer> chunks) {
      return super.writeWith(Flux.from(chunks).doOnNext(this::copy));
    }

    @Override
    public Mono<Void> writeAndFlushWith(Publisher<? extends Publisher<? extends DataBuffer>> body) {
      return super.writeAndFlushWith(
          Flux.from(body).map(chunks -> Flux.from(chunks).doOnNext(this::copy)));
    }

    private void copy(DataBuffer buffer) {
      byte[] bytes = new byte[buffer.readableByteCount()];
      buffer.toByteBuffer().get(bytes);
      body.writeBytes(bytes);
    }

    KeptAnswer answer(ServerResponse response) {
      MediaType type = response.headers().getContentType();
      return new KeptAnswer(
          response.statusCode().value(),
          type == null ? MediaType.APPLICATION_JSON_VALUE : type.toString(),
          body.toByteArray());
    }
  }
}

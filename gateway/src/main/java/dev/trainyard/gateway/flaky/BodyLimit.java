package dev.trainyard.gateway.flaky;

import java.util.concurrent.atomic.AtomicLong;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import reactor.core.publisher.Flux;

/**
 * Passes a request body on as it streams in and stops it with {@link TooLarge} once it exceeds its
 * limit, so a body without a (truthful) Content-Length is never buffered whole or sent on in full.
 */
final class BodyLimit {
  private BodyLimit() {}

  /** The body beyond the limit: the request is answered 413. */
  static final class TooLarge extends RuntimeException {
    TooLarge(long limit) {
      super(
          "the request body is larger than the limit of " + (limit >> 20) + " MiB",
          null,
          false,
          false);
    }
  }

  static Flux<DataBuffer> of(Flux<DataBuffer> body, long limit) {
    return Flux.defer(
        () -> {
          AtomicLong seen = new AtomicLong();
          return body.handle(
              (buffer, sink) -> {
                if (seen.addAndGet(buffer.readableByteCount()) > limit) {
                  DataBufferUtils.release(buffer);
                  sink.error(new TooLarge(limit));
                } else {
                  sink.next(buffer);
                }
              });
        });
  }
}

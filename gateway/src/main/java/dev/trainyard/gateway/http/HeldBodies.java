package dev.trainyard.gateway.http;

import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Request bodies the gateway must hold before it can act (an {@code Idempotency-Key}'s fingerprint,
 * a GitHub delivery's signature), read as they stream: each chunk is seen by the caller (a digest,
 * a MAC) as it arrives, the route's limit is enforced on the bytes received (a chunked body that
 * says no length is refused with 413 at the limit, not after it), a body that stops arriving is
 * refused after {@link #READ_TIMEOUT}, and all bodies being read at once share {@link #BUDGET}
 * bytes of memory, past which a request is answered 503 with {@code Retry-After} instead of
 * exhausting the gateway.
 */
@Component
public class HeldBodies {
  /** Memory all bodies being held at once may take. */
  public static final long BUDGET = 256L * 1024 * 1024;

  /** How long a body may take to arrive in full. */
  public static final Duration READ_TIMEOUT = Duration.ofSeconds(60);

  private final AtomicLong held = new AtomicLong();
  private final long budget;

  public HeldBodies() {
    this(BUDGET);
  }

  HeldBodies(long budget) {
    this.budget = budget;
  }

  /**
   * The body, whole, once it arrived within {@code limit} bytes; {@code eachChunk} sees every chunk
   * first, in order.
   *
   * @throws ApiException (as the Mono's error) 413 past the limit, 408 when it stops arriving, 503
   *     when the gateway holds too much already
   */
  public Mono<byte[]> read(Flux<DataBuffer> body, long limit, Consumer<byte[]> eachChunk) {
    return Mono.defer(
        () -> {
          ByteArrayOutputStream out = new ByteArrayOutputStream();
          AtomicLong mine = new AtomicLong();
          return body.handle(
                  (DataBuffer buffer, reactor.core.publisher.SynchronousSink<byte[]> sink) -> {
                    try {
                      int size = buffer.readableByteCount();
                      if (out.size() + (long) size > limit) {
                        sink.error(tooLarge(limit));
                        return;
                      }
                      if (held.addAndGet(size) > budget) {
                        held.addAndGet(-size);
                        sink.error(
                            ApiException.unavailable(
                                "the gateway is holding as many request bodies as it can; retry"
                                    + " in a moment",
                                1));
                        return;
                      }
                      mine.addAndGet(size);
                      byte[] chunk = new byte[size];
                      buffer.read(chunk);
                      eachChunk.accept(chunk);
                      out.writeBytes(chunk);
                    } finally {
                      DataBufferUtils.release(buffer);
                    }
                  })
              .then(Mono.fromSupplier(out::toByteArray))
              .timeout(
                  READ_TIMEOUT,
                  Mono.error(
                      () ->
                          new ApiException(
                              HttpStatus.REQUEST_TIMEOUT,
                              "the request body did not arrive within "
                                  + READ_TIMEOUT.toSeconds()
                                  + " s")))
              .doFinally(signal -> held.addAndGet(-mine.get()));
        });
  }

  /** Bytes held now, by bodies being read. */
  public long held() {
    return held.get();
  }

  public static ApiException tooLarge(long limit) {
    return new ApiException(
        HttpStatus.CONTENT_TOO_LARGE,
        "the request body is larger than the limit of " + describe(limit));
  }

  private static String describe(long limit) {
    return limit >= 1024 * 1024 ? (limit >> 20) + " MiB" : (limit >> 10) + " KiB";
  }
}

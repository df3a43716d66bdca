package dev.trainyard.gateway.http;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
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

  /** Bodies sharing {@code budget} bytes: a route anyone can reach gets its own. */
  public HeldBodies(long budget) {
    this.budget = budget;
  }

  /**
   * Reads the body whole within {@code limit} bytes ({@code eachChunk} sees every chunk first, in
   * order), then runs {@code use} with it; the body's bytes count against the budget until {@code
   * use} is done.
   *
   * @throws ApiException (as the Mono's error) 413 past the limit, 408 when it stops arriving, 503
   *     when the gateway holds too much already
   */
  public <T> Mono<T> hold(
      Flux<DataBuffer> body,
      long limit,
      Consumer<byte[]> eachChunk,
      Function<byte[], Mono<T>> use) {
    return Mono.defer(
        () -> {
          Reservation reservation = new Reservation();
          List<byte[]> chunks = new ArrayList<>();
          long[] size = {0};
          return body.<byte[]>handle(
                  (buffer, sink) -> {
                    try {
                      int n = buffer.readableByteCount();
                      if (size[0] + n > limit) {
                        sink.error(tooLarge(limit));
                      } else if (!reservation.add(n)) {
                        sink.error(
                            ApiException.unavailable(
                                "the gateway is holding as many request bodies as it can; retry"
                                    + " in a moment",
                                1));
                      } else {
                        byte[] chunk = new byte[n];
                        buffer.read(chunk);
                        eachChunk.accept(chunk);
                        chunks.add(chunk);
                        size[0] += n;
                      }
                    } finally {
                      DataBufferUtils.release(buffer);
                    }
                  })
              .then(Mono.fromSupplier(() -> joined(chunks, size[0])))
              .timeout(
                  READ_TIMEOUT,
                  Mono.error(
                      () ->
                          new ApiException(
                              HttpStatus.REQUEST_TIMEOUT,
                              "the request body did not arrive within "
                                  + READ_TIMEOUT.toSeconds()
                                  + " s")))
              .flatMap(use)
              .doFinally(signal -> reservation.release());
        });
  }

  private static byte[] joined(List<byte[]> chunks, long size) {
    byte[] whole = new byte[(int) size];
    int at = 0;
    for (byte[] chunk : chunks) {
      System.arraycopy(chunk, 0, whole, at, chunk.length);
      at += chunk.length;
    }
    chunks.clear();
    return whole;
  }

  /**
   * One body's share of the budget. A chunk may still arrive after the read was cancelled (a
   * timeout cancels from another thread): once released, nothing more is counted.
   */
  private final class Reservation {
    private long mine;
    private boolean released;

    /** Counts {@code n} more bytes; false when the budget is spent (or the read is over). */
    synchronized boolean add(int n) {
      if (released || held.addAndGet(n) > budget) {
        if (!released) {
          held.addAndGet(-n);
        }
        return false;
      }
      mine += n;
      return true;
    }

    synchronized void release() {
      if (!released) {
        released = true;
        held.addAndGet(-mine);
      }
    }
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

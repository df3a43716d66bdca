package dev.trainyard.gateway.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trainyard.gateway.auth.Sessions;
import dev.trainyard.gateway.http.ApiException;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/** Live streams capped per session and per organization, sharing one session check a period. */
class LiveStreamsTest {
  private final AtomicLong millis = new AtomicLong(5_000_000);
  private final InstantSource clock = () -> Instant.ofEpochMilli(millis.get());

  private static Sessions.Session session(String id, String org) {
    return new Sessions.Session(
        id, org, false, "t", "c", Instant.MAX, null, Instant.MAX, Instant.MIN);
  }

  @Test
  void aSessionPastItsStreamsIsRefusedWith429UntilOneCloses() {
    LiveStreams streams = new LiveStreams(2, 100, clock);
    Sessions.Session alice = session("s1", "acme");
    LiveStreams.Stream first = streams.open(alice, "acme");
    streams.open(alice, "acme");

    assertThatThrownBy(() -> streams.open(alice, "acme"))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.status().value()).isEqualTo(429);
              assertThat(e.retryAfterSeconds()).isEqualTo(LiveStreams.RETRY_AFTER_SECONDS);
              assertThat(e.getMessage()).startsWith("this session has 2 live pages open already");
            });
    assertThat(streams.open(session("s2", "acme"), "acme")).as("another session").isNotNull();

    first.close();
    first.close(); // a second close frees nothing more
    streams.open(alice, "acme");
    assertThatThrownBy(() -> streams.open(alice, "acme")).isInstanceOf(ApiException.class);
  }

  @Test
  void anOrganizationPastItsStreamsIsRefusedAndAnotherIsNot() {
    LiveStreams streams = new LiveStreams(10, 3, clock);
    for (int i = 0; i < 3; i++) {
      streams.open(session("s" + i, "acme"), "acme");
    }

    assertThatThrownBy(() -> streams.open(session("s9", "acme"), "acme"))
        .hasMessageStartingWith("organization acme has 3 live pages open already");
    assertThat(streams.open(session("o1", "other"), "other")).isNotNull();
    assertThat(streams.open("acme")).isEqualTo(3);
  }

  @Test
  void theStreamsOfOneSessionShareOneCheckAPeriod() {
    LiveStreams streams = new LiveStreams(10, 100, clock);
    Sessions.Session alice = session("s1", "acme");
    AtomicInteger asked = new AtomicInteger();
    LiveStreams.Stream a = streams.open(alice, "acme");
    LiveStreams.Stream b = streams.open(alice, "acme");

    for (int i = 0; i < 5; i++) {
      assertThat(a.alive(s -> Mono.fromSupplier(() -> asked.incrementAndGet() > 0)).block())
          .isTrue();
      assertThat(b.alive(s -> Mono.fromSupplier(() -> asked.incrementAndGet() > 0)).block())
          .isTrue();
    }
    assertThat(asked).as("ten checks of two streams, one store read").hasValue(1);

    millis.addAndGet(LiveStreams.CHECKED_FOR.toMillis());
    b.alive(s -> Mono.fromSupplier(() -> asked.incrementAndGet() > 0)).block();
    assertThat(asked).as("asked again once the period is over").hasValue(2);
  }
}

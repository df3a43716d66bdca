package dev.trainyard.gateway.flaky;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.ConnectTimeoutException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.web.reactive.function.client.WebClientRequestException;
import reactor.netty.channel.AbortedException;

/** Which errors count against the breaker: the service's failures, never the client's. */
class FlakyTestsProxyTest {
  record Row(String what, Throwable error, boolean counts) {
    @Override
    public String toString() {
      return what + " → " + (counts ? "counts" : "not counted");
    }
  }

  static Stream<Row> errors() {
    return Stream.of(
        new Row("no answer in time", new TimeoutException("4.5 s"), true),
        new Row("connection refused", wrapped(new ConnectException("refused")), true),
        new Row("connect timed out", wrapped(new ConnectTimeoutException("1 s")), true),
        new Row("unknown host", wrapped(new UnknownHostException("flaky")), true),
        new Row("no route to the host", wrapped(new java.net.NoRouteToHostException("down")), true),
        new Row("the client aborted its upload", new AbortedException("client gone"), false),
        new Row("the client's body broke", new IOException("Connection reset by peer"), false),
        new Row("a bug of ours", new IllegalStateException("oops"), false));
  }

  private static Throwable wrapped(Exception cause) {
    return new WebClientRequestException(
        cause,
        org.springframework.http.HttpMethod.POST,
        java.net.URI.create("http://127.0.0.1:1/v1/flaky-tests/upload"),
        new org.springframework.http.HttpHeaders());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("errors")
  void onlyTheServicesFailuresCount(Row row) {
    assertThat(FlakyTestsProxy.serviceFailure(row.error())).isEqualTo(row.counts());
  }
}

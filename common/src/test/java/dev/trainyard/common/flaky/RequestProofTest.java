package dev.trainyard.common.flaky;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.flaky.RequestProof.Accepted;
import dev.trainyard.common.flaky.RequestProof.Rejected;
import dev.trainyard.common.flaky.RequestProof.Request;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** A proof holds only for its organization, method, path and key, within 5 minutes either way. */
class RequestProofTest {
  private static final String KEY = "0123456789abcdef0123456789abcdef";
  private static final Instant SIGNED = Instant.parse("2026-11-22T10:00:00Z");
  private static final Request LIST =
      new Request("acme", "POST", "/v1/flaky-tests/list-unhealthy-tests");

  private final AtomicReference<Instant> now = new AtomicReference<>(SIGNED);
  private final RequestProof proofs = new RequestProof(KEY, now::get);

  /** A proof the gateway made for {@link #LIST}, then {@code change}d, checked for {@code as}. */
  record Row(String what, UnaryOperator<String> change, Request as, String rejection) {
    @Override
    public String toString() {
      return what;
    }
  }

  static Stream<Row> notThisRequest() {
    String mismatch = "the gateway proof does not match this request";
    return Stream.of(
        new Row(
            "another organization", p -> p, new Request("other", "POST", LIST.target()), mismatch),
        new Row("another method", p -> p, new Request("acme", "GET", LIST.target()), mismatch),
        new Row(
            "another path",
            p -> p,
            new Request("acme", "POST", "/v1/flaky-tests/set-quarantine-setting"),
            mismatch),
        new Row(
            "the path with a query",
            p -> p,
            new Request("acme", "POST", LIST.target() + "?org=acme"),
            mismatch),
        new Row("a tampered signature", p -> swapLast(p), LIST, mismatch),
        new Row(
            "a tampered time",
            p -> p.replace(at(SIGNED), at(SIGNED.plusMillis(1))),
            LIST,
            mismatch),
        new Row("a tampered nonce", p -> swapAt(p, p.indexOf('.', 3) + 1), LIST, mismatch),
        new Row(
            "signed with another key",
            p -> new RequestProof(KEY + "!", () -> SIGNED).sign(LIST),
            LIST,
            mismatch),
        new Row(
            "none", p -> null, LIST, "the request carries no gateway proof of its organization"),
        new Row(
            "another version",
            p -> "v2" + p.substring(2),
            LIST,
            "the gateway proof is not a v1 proof"),
        new Row(
            "cut short",
            p -> p.substring(0, p.length() - 1),
            LIST,
            "the gateway proof is not a v1 proof"),
        new Row(
            "the old organization signature",
            p -> "3q2-7w",
            LIST,
            "the gateway proof is not a v1 proof"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("notThisRequest")
  void aProofHoldsOnlyForTheRequestItWasMadeFor(Row row) {
    String proof = row.change().apply(proofs.sign(LIST));

    assertThat(proofs.verify(row.as(), proof))
        .isEqualTo(
            new Rejected(row.rejection() + ": call the flaky-tests API through the gateway"));
  }

  record Skew(Duration verifiedAfter, boolean accepted) {
    @Override
    public String toString() {
      return "verified " + verifiedAfter + " after signing → " + (accepted ? "fresh" : "refused");
    }
  }

  static Stream<Skew> skews() {
    Duration millisecond = Duration.ofMillis(1);
    return Stream.of(
        new Skew(Duration.ZERO, true),
        new Skew(Duration.ofMinutes(5), true),
        new Skew(Duration.ofMinutes(5).plus(millisecond), false),
        new Skew(Duration.ofMinutes(-5), true), // the gateway's clock ahead of the service's
        new Skew(Duration.ofMinutes(-5).minus(millisecond), false),
        new Skew(Duration.ofDays(-1), false),
        new Skew(Duration.ofDays(365), false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("skews")
  void aProofIsFreshForFiveMinutesEitherSideOfTheServicesClock(Skew skew) {
    String proof = proofs.sign(LIST);

    now.set(SIGNED.plus(skew.verifiedAfter()));

    RequestProof.Verdict verdict = proofs.verify(LIST, proof);
    if (skew.accepted()) {
      assertThat(verdict).isInstanceOf(Accepted.class);
    } else {
      assertThat(verdict)
          .isEqualTo(
              new Rejected(
                  "the gateway proof was made at 2026-11-22T10:00:00Z, more than 5 minutes from"
                      + " this service's clock ("
                      + now.get()
                      + "): call the flaky-tests API through the gateway"));
    }
  }

  @Test
  void aFreshProofNamesItsNonceAndHowLongItMustBeRemembered() {
    String first = proofs.sign(LIST);
    String second = proofs.sign(LIST);

    assertThat(first)
        .startsWith("v1" + at(SIGNED))
        .matches("v1\\.[0-9]+\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}");
    Accepted accepted = (Accepted) proofs.verify(LIST, first);
    assertThat(first).contains("." + accepted.nonce() + ".");
    assertThat(accepted.usableUntil()).isEqualTo(SIGNED.plus(RequestProof.WINDOW));
    assertThat(((Accepted) proofs.verify(LIST, second)).nonce()).isNotEqualTo(accepted.nonce());
    assertThat(RequestProof.replayed().reason())
        .isEqualTo(
            "the gateway proof was used before: call the flaky-tests API through the gateway");
  }

  /** How a proof spells its time. */
  private static String at(Instant time) {
    return "." + time.toEpochMilli() + ".";
  }

  private static String swapLast(String proof) {
    return swapAt(proof, proof.length() - 1);
  }

  private static String swapAt(String proof, int at) {
    char replacement = proof.charAt(at) == 'A' ? 'B' : 'A';
    return proof.substring(0, at) + replacement + proof.substring(at + 1);
  }
}

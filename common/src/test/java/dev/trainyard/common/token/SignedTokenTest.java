package dev.trainyard.common.token;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class SignedTokenTest {
  record Position(long at, String id) {}

  private static final byte[] SECRET =
      "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8);

  @Test
  void aTokenDecodesInItsOwnScope() {
    String token = SignedToken.encode(new Position(7, "x"), SECRET, "scope-a");

    assertThat(SignedToken.decode(token, Position.class, SECRET, "scope-a", "cursor"))
        .isEqualTo(new Position(7, "x"));
    assertThat(token).matches("[A-Za-z0-9_.-]+");
  }

  @Test
  void aForeignTamperedOrMadeUpTokenIsRejectedNamingTheField() {
    String token = SignedToken.encode(new Position(7, "x"), SECRET, "scope-a");
    String tampered = (token.charAt(0) == 'A' ? "B" : "A") + token.substring(1);

    for (String bad : new String[] {tampered, "nonsense", ".", token + "x"}) {
      assertThatThrownBy(() -> SignedToken.decode(bad, Position.class, SECRET, "scope-a", "f"))
          .as(bad)
          .isInstanceOf(InvalidTokenException.class)
          .hasMessage("f is not a cursor of this listing");
    }
    assertThatThrownBy(
            () -> SignedToken.decode(token, Position.class, SECRET, "scope-b", "page_token"))
        .isInstanceOf(InvalidTokenException.class)
        .hasMessage("page_token is not a cursor of this listing");
  }
}

package dev.trainyard.common.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Well-formed UTF-8 as RFC 3629 defines it, checked against the JDK's strict decoder. */
class Utf8Test {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "7b7d",
        "c3a0",
        "e282ac",
        "f09f9a82",
        "efbfbd",
        "f48fbfbf",
        "7e",
        "dfbf",
        "ee8080"
      })
  void wellFormedSequencesPass(String hex) {
    byte[] bytes = HexFormat.of().parseHex(hex);

    assertThat(Utf8.isWellFormed(bytes)).isTrue();
    assertThat(decodesStrictly(bytes)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "ff",
        "fe",
        "80",
        "c328",
        "c0af",
        "c1bf",
        "e080af",
        "eda080",
        "edbfbf",
        "f4908080",
        "f5808080",
        "f08f8080",
        "e282",
        "f09f9a",
        "6f776e65ffff72",
        "6f776e65c3"
      })
  void malformedSequencesFail(String hex) {
    byte[] bytes = HexFormat.of().parseHex(hex);

    assertThat(Utf8.isWellFormed(bytes)).isFalse();
    assertThat(decodesStrictly(bytes)).isFalse();
  }

  private static boolean decodesStrictly(byte[] bytes) {
    try {
      StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes));
      return true;
    } catch (CharacterCodingException e) {
      return false;
    }
  }
}

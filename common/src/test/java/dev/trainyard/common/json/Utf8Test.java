package dev.trainyard.common.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Well-formed UTF-8 as RFC 3629 defines it, and as the JDK's strict decoder agrees. */
class Utf8Test {

  @ParameterizedTest(name = "{0} → {1}")
  @CsvSource({
    "'', true",
    "7b7d, true",
    "c3a0, true",
    "dfbf, true",
    "e282ac, true",
    "ee8080, true",
    "efbfbd, true",
    "f09f9a82, true",
    "f48fbfbf, true",
    "ff, false",
    "fe, false",
    "80, false",
    "c328, false",
    "c0af, false",
    "c1bf, false",
    "e080af, false",
    "eda080, false",
    "edbfbf, false",
    "f08f8080, false",
    "f4908080, false",
    "f5808080, false",
    "e282, false",
    "f09f9a, false",
    "6f776e65ffff72, false",
    "6f776e65c3, false"
  })
  void wellFormedIsWhatRfc3629Allows(String hex, boolean wellFormed) {
    byte[] bytes = HexFormat.of().parseHex(hex);

    assertThat(Utf8.isWellFormed(bytes)).isEqualTo(wellFormed);
    assertThat(decodesStrictly(bytes)).isEqualTo(wellFormed);
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

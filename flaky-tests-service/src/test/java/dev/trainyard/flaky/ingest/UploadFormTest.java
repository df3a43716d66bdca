package dev.trainyard.flaky.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.trainyard.flaky.http.ApiException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The new upload fields refuse what would place paths outside the repository or carry control
 * characters, with a 400 naming the field; what they accept is normalised.
 */
class UploadFormTest {

  @ParameterizedTest(name = "{0} → {1}")
  @CsvSource(
      nullValues = "-",
      value = {
        "packages/web, packages/web",
        "packages/web/, packages/web",
        "./packages/web, packages/web",
        "packages\\web, packages/web",
        "., -",
        "'', -",
      })
  void aPathPrefixInsideTheRepositoryIsKept(String given, String kept) {
    assertThat(UploadForm.pathPrefix(given)).isEqualTo(kept);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"../other", "packages/../../etc", "/etc", "a/..", "web\u0000x", "..\\up"})
  void aPathPrefixLeavingTheRepositoryIsA400(String given) {
    assertThatThrownBy(() -> UploadForm.pathPrefix(given))
        .isInstanceOf(ApiException.class)
        .hasMessageStartingWith("pathPrefix must be a path inside the repository")
        .extracting(e -> ((ApiException) e).status().value())
        .isEqualTo(400);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"py\n311", "x\u0007"})
  void aFilePartsVariantWithControlCharactersIsA400NamingThePart(String variant) {
    assertThatThrownBy(() -> UploadForm.variant(variant, "file:" + variant))
        .isInstanceOf(ApiException.class)
        .hasMessageStartingWith("file:" + variant + " must be a string of at most 255 characters");
  }
}

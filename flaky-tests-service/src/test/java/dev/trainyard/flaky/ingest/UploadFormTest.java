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

  /** Issue 49, item 10: a timestamp without a zone is the runner's local time. */
  @ParameterizedTest(name = "{0} in {1} → {2}")
  @CsvSource(
      nullValues = "-",
      value = {
        "2026-11-20T10:00:00, Europe/Berlin, 2026-11-20T09:00:00Z",
        "2026-11-20T10:00:00, +05:30, 2026-11-20T04:30:00Z",
        "2026-11-20T10:00:00, Z, 2026-11-20T10:00:00Z",
        "2026-11-20T10:00:00, -, -",
      })
  void aTimestampWithoutAZoneIsInTheUploadsTimeZone(String local, String zone, String started) {
    UploadForm form =
        new UploadForm(
            new dev.trainyard.flaky.repo.Repo("github.com", "acme", "shop"),
            "abc",
            "main",
            null,
            "",
            null,
            null,
            null,
            zone == null ? null : UploadForm.zone(zone));
    ParsedReport report =
        new ParsedReport(
            "r.xml",
            null,
            new byte[32],
            java.util.List.of(),
            UploadLimits.Skipped.NONE,
            null,
            java.time.LocalDateTime.parse(local),
            null);

    assertThat(form.started(report))
        .isEqualTo(started == null ? null : java.time.Instant.parse(started));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "Mars/Olympus",
        "+25:00",
        "CEST-ish",
        "Europe/Berlin/And/Then/Some/Very/Long/Name/That/Goes/On/Past/Sixty/Four"
      })
  void aTimeZoneNoOneKnowsIsA400(String zone) {
    assertThatThrownBy(() -> UploadForm.zone(zone))
        .isInstanceOf(ApiException.class)
        .hasMessageStartingWith("timeZone must be an IANA time zone");
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

package dev.trainyard.cli.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class SettingsTest {
  @TempDir Path home;

  @Test
  void anOptionWinsOverTheEnvironmentWhichWinsOverTheFile() throws IOException {
    Path file = config("url=http://file:1\ntoken=from-file\norg=file-org\n", "rw-------");
    Map<String, String> env =
        Map.of("TRAINYARD_CONFIG", file.toString(), "TRAINYARD_TOKEN", "from-env");

    assertThat(Settings.resolve(null, null, null, env))
        .isEqualTo(new Settings(URI.create("http://file:1"), "from-env", Optional.of("file-org")));
    assertThat(Settings.resolve("http://option:2/", "from-option", "o", env))
        .isEqualTo(new Settings(URI.create("http://option:2"), "from-option", Optional.of("o")));
  }

  @Test
  void withoutAnyAddressItIsTheStandalonesOnThisMachine() {
    Settings settings = Settings.resolve(null, "t", null, Map.of("HOME", home.toString()));
    assertThat(settings.url()).isEqualTo(URI.create(Settings.DEFAULT_URL));
    assertThat(settings.org()).isEmpty();
  }

  @Test
  void theFileIsFoundUnderXdgConfigHomeThenUnderHome() throws IOException {
    Path xdg = home.resolve("xdg").resolve("trainyard").resolve("config");
    Files.createDirectories(xdg.getParent());
    Files.writeString(xdg, "token=xdg\n");
    Files.setPosixFilePermissions(xdg, PosixFilePermissions.fromString("rw-------"));
    Path dot = home.resolve(".config").resolve("trainyard").resolve("config");
    Files.createDirectories(dot.getParent());
    Files.writeString(dot, "token=dot\n");
    Files.setPosixFilePermissions(dot, PosixFilePermissions.fromString("r--------"));

    Map<String, String> both =
        Map.of("HOME", home.toString(), "XDG_CONFIG_HOME", home.resolve("xdg").toString());
    assertThat(Settings.resolve(null, null, null, both).token()).isEqualTo("xdg");
    assertThat(Settings.resolve(null, null, null, Map.of("HOME", home.toString())).token())
        .isEqualTo("dot");
  }

  @ParameterizedTest
  @ValueSource(strings = {"rw-r-----", "rw----r--", "rw-rw-rw-", "rwx---r-x"})
  void aFileOthersCanReadIsRefused(String permissions) throws IOException {
    Path file = config("token=secret\n", permissions);
    assertThatThrownBy(
            () -> Settings.resolve(null, null, null, Map.of("TRAINYARD_CONFIG", file.toString())))
        .isInstanceOfSatisfying(Refused.class, r -> assertThat(r.exit()).isEqualTo(Exit.USAGE))
        .hasMessageContaining("chmod 600 " + file)
        .hasMessageNotContaining("secret");
  }

  @Test
  void aFileWithoutATokenMayBeReadByOthers() throws IOException {
    Path file = config("url=http://shared:8080\n", "rw-r--r--");
    Settings settings =
        Settings.resolve(
            null, "t", null, Map.of("TRAINYARD_CONFIG", file.toString(), "HOME", home.toString()));
    assertThat(settings.url()).isEqualTo(URI.create("http://shared:8080"));
  }

  @Test
  void noTokenAnywhereSaysWhereOneGoes() {
    assertThatThrownBy(() -> Settings.resolve(null, " ", null, Map.of("HOME", home.toString())))
        .isInstanceOfSatisfying(Refused.class, r -> assertThat(r.exit()).isEqualTo(Exit.USAGE))
        .hasMessageContaining("--token")
        .hasMessageContaining("TRAINYARD_TOKEN")
        .hasMessageContaining(home.resolve(".config/trainyard/config").toString());
  }

  @ParameterizedTest
  @CsvSource({
    "http://localhost:8080, http://localhost:8080",
    "https://trainyard.example.com/, https://trainyard.example.com",
    "https://example.com/trainyard/v1, https://example.com/trainyard",
    "HTTP://[::1]:8080//, HTTP://[::1]:8080"
  })
  void addressesKeepTheirBaseWithoutTrailingSlashOrV1(String given, String kept) {
    assertThat(Settings.address(given)).isEqualTo(URI.create(kept));
  }

  @ParameterizedTest
  @ValueSource(strings = {"localhost:8080", "ftp://host", "http://", "http://h/?q=1", "not a url"})
  void otherAddressesAreRefused(String given) {
    assertThatThrownBy(() -> Settings.address(given))
        .isInstanceOfSatisfying(Refused.class, r -> assertThat(r.exit()).isEqualTo(Exit.USAGE))
        .hasMessageContaining("is not an http(s) address");
  }

  @ParameterizedTest
  @CsvSource({
    "http://localhost:8080, false",
    "http://127.0.0.1:8080, false",
    "http://[::1]:8080, false",
    "https://trainyard.example.com, false",
    "http://trainyard.example.com, true",
    "HTTP://10.0.0.7:8080, true"
  })
  void aTokenSentOverPlainHttpBeyondThisMachineIsInTheClear(String url, boolean clear) {
    assertThat(new Settings(URI.create(url), "t", Optional.empty()).tokenInTheClear())
        .isEqualTo(clear);
  }

  private Path config(String text, String permissions) throws IOException {
    Path file = home.resolve("config");
    Files.writeString(file, text);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(permissions));
    return file;
  }
}

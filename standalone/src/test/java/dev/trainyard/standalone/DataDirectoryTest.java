package dev.trainyard.standalone;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DataDirectoryTest {
  @TempDir Path temp;

  @Test
  void theDataAndItsSecretsAreTheOwnersOnly() throws Exception {
    Path root = temp.resolve("data");
    DataDirectory data = new DataDirectory(root);

    DataDirectory.Secret first = data.secret("admin.token", null, () -> "generated-1");
    DataDirectory.Secret second = data.secret("webhook.key", "", () -> "generated-2");

    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(root)))
        .isEqualTo("rwx------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(data.file())))
        .isEqualTo("rw-------");
    assertThat(Files.list(root).map(p -> p.getFileName().toString()))
        .as("no temporary file is left behind")
        .containsExactly(DataDirectory.FILE);
    assertThat(first)
        .isEqualTo(new DataDirectory.Secret("generated-1", DataDirectory.Origin.GENERATED_NOW));
    assertThat(second.origin()).isEqualTo(DataDirectory.Origin.GENERATED_NOW);
  }

  @Test
  void aSecretIsGivenGeneratedOnceOrRemembered() throws Exception {
    Path root = temp.resolve("data");
    new DataDirectory(root).secret("admin.token", null, () -> "generated");
    DataDirectory again = new DataDirectory(root);

    assertThat(again.secret("admin.token", null, () -> "other"))
        .isEqualTo(new DataDirectory.Secret("generated", DataDirectory.Origin.REMEMBERED));
    assertThat(again.secret("admin.token", "from-env", () -> "other"))
        .isEqualTo(new DataDirectory.Secret("from-env", DataDirectory.Origin.GIVEN));
    assertThat(Files.readString(again.file())).doesNotContain("from-env");
  }
}

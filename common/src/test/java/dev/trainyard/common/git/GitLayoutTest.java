package dev.trainyard.common.git;

import static org.assertj.core.api.Assertions.assertThat;

import dev.trainyard.common.git.GitLayout.Location;
import dev.trainyard.common.queue.OrgRepo;
import dev.trainyard.common.queue.RepoRef;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The git root as two organizations and an outsider left it: {@code acme} owns {@code
 * github.com/acme/rocket}, {@code other} owns {@code github.com/other/secret}, and {@code
 * /outside/victim.git} is nobody's. Links inside acme's folder point at the others.
 */
class GitLayoutTest {
  @TempDir Path temp;
  private Path root;

  /** {@code org} asks for {@code host/owner/name}; the layout answers {@code expected}. */
  record Row(String rule, String org, String host, String owner, String name, String expected) {
    @Override
    public String toString() {
      return rule;
    }
  }

  @BeforeEach
  void layout() throws IOException {
    root = Files.createDirectories(temp.resolve("git"));
    Files.createDirectories(root.resolve("acme/github.com/acme/rocket.git"));
    Files.createDirectories(root.resolve("other/github.com/other/secret.git"));
    Path victim = Files.createDirectories(temp.resolve("outside/victim.git"));
    Path links = Files.createDirectories(root.resolve("acme/github.com/links"));
    Files.createSymbolicLink(
        links.resolve("to-other.git"), root.resolve("other/github.com/other/secret.git"));
    Files.createSymbolicLink(links.resolve("to-outside.git"), victim);
    Files.createSymbolicLink(
        links.resolve("inside.git"), root.resolve("acme/github.com/acme/rocket.git"));
    Files.createSymbolicLink(root.resolve("thief"), root.resolve("other"));
  }

  static Stream<Row> rows() {
    return Stream.of(
        new Row(
            "an organization's own repository is served",
            "acme",
            "github.com",
            "acme",
            "rocket",
            "served"),
        new Row(
            "a link that stays in the organization is served",
            "acme",
            "github.com",
            "links",
            "inside",
            "served"),
        new Row(
            "another organization's repository by the same names is absent",
            "other",
            "github.com",
            "acme",
            "rocket",
            "absent"),
        new Row(
            "a repository nobody has is absent", "acme", "github.com", "acme", "nothing", "absent"),
        new Row(
            "a link into another organization is refused",
            "acme",
            "github.com",
            "links",
            "to-other",
            "refused"),
        new Row(
            "a link out of the root is refused",
            "acme",
            "github.com",
            "links",
            "to-outside",
            "refused"),
        new Row(
            "an organization folder that links to another's is refused",
            "thief",
            "github.com",
            "other",
            "secret",
            "refused"),
        new Row("a host of .. is refused", "acme", "..", "outside", "victim", "refused"),
        new Row("an owner of .. is refused", "other", "github.com", "..", "..", "refused"),
        new Row(
            "a name with a slash is refused",
            "acme",
            "github.com",
            "acme",
            "../../../outside/victim",
            "refused"),
        new Row("an organization of .. is refused", "..", "outside", "x", "victim", "refused"),
        new Row("an empty part is refused", "acme", "", "acme", "rocket", "refused"),
        new Row("a backslash is refused", "acme", "github.com", "a\\b", "rocket", "refused"),
        new Row("a NUL is refused", "acme", "github.com", "acme", "rocket\0", "refused"));
  }

  @ParameterizedTest
  @MethodSource("rows")
  void locatesOnlyInsideTheOrganizationsFolder(Row row) throws IOException {
    Location location =
        GitLayout.locate(
            root, new OrgRepo(row.org(), new RepoRef(row.host(), row.owner(), row.name())));

    switch (row.expected()) {
      case "served" -> {
        assertThat(location).isInstanceOf(Location.Served.class);
        Path path = ((Location.Served) location).path();
        assertThat(path).startsWith(root.toRealPath().resolve(row.org()));
      }
      case "absent" -> assertThat(location).isInstanceOf(Location.Absent.class);
      default -> assertThat(location).isInstanceOf(Location.Refused.class);
    }
  }
}

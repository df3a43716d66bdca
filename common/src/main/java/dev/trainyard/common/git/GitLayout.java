package dev.trainyard.common.git;

import dev.trainyard.common.queue.OrgRepo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;

/**
 * Maps an organization's repository to its bare repository under the git root, {@code
 * <root>/<org>/<host>/<owner>/<name>.git} (API.md §6). The gateway validates names at the edge;
 * this is the defence behind it: every part must be one plain path segment, and the folder, with
 * symbolic links followed, must lie under the real path of {@code <root>/<org>/}. Nothing outside
 * that folder is ever opened for an organization, whatever the names or the links on disk say.
 */
public final class GitLayout {
  private GitLayout() {}

  /** What the layout says of one repository. */
  public sealed interface Location {
    /** The repository exists at {@code path} (its real path), inside the organization's folder. */
    record Served(Path path) implements Location {}

    /** No repository of the organization has these names. */
    record Absent() implements Location {}

    /** The names or the folder lead outside the organization's folder: never opened. */
    record Refused(String reason) implements Location {}
  }

  /** Where {@code repo}'s bare repository is, if it is there and its organization's. */
  public static Location locate(Path root, OrgRepo repo) {
    List<String> parts =
        List.of(repo.org(), repo.repo().host(), repo.repo().owner(), repo.repo().name() + ".git");
    for (String part : parts) {
      if (!isPlainSegment(part)) {
        return new Location.Refused(repo + " has a name that is not one plain path segment");
      }
    }
    Path orgFolder = root.resolve(repo.org());
    Path folder =
        orgFolder.resolve(parts.get(1)).resolve(parts.get(2)).resolve(parts.get(3)).normalize();
    if (!folder.startsWith(orgFolder.normalize())) {
      return new Location.Refused(repo + " resolves outside its organization's folder");
    }
    if (!Files.isDirectory(folder)) {
      return new Location.Absent();
    }
    try {
      Path real = folder.toRealPath();
      Path realOrgFolder = orgFolder.toRealPath();
      Path realRoot = root.toRealPath();
      if (realOrgFolder.startsWith(realRoot)
          && !realOrgFolder.equals(realRoot.resolve(repo.org()))) {
        // an organization's folder may live elsewhere (a mounted volume), never in another's
        return new Location.Refused(repo.org() + "'s folder is a link into " + realOrgFolder);
      }
      if (!real.startsWith(realOrgFolder)) {
        return new Location.Refused(
            repo + " is a link to " + real + ", outside its organization's folder");
      }
      return Files.isDirectory(real, LinkOption.NOFOLLOW_LINKS)
          ? new Location.Served(real)
          : new Location.Absent();
    } catch (IOException e) {
      return new Location.Absent();
    }
  }

  private static boolean isPlainSegment(String part) {
    return !part.isEmpty()
        && !part.equals(".")
        && !part.equals("..")
        && part.chars().noneMatch(c -> c == '/' || c == '\\' || c == 0);
  }
}

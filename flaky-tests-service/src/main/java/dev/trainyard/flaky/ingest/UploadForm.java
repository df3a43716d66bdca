package dev.trainyard.flaky.ingest;

import dev.trainyard.common.json.StrictJson;
import dev.trainyard.flaky.http.ApiException;
import dev.trainyard.flaky.http.JsonBody;
import dev.trainyard.flaky.owners.SourcePath;
import dev.trainyard.flaky.repo.Repo;
import java.util.UUID;
import org.springframework.http.codec.multipart.FormFieldPart;
import org.springframework.http.codec.multipart.Part;
import org.springframework.util.MultiValueMap;

/**
 * The fields of an upload (API.md §6): {@code repo} (JSON {@code {host, owner, name}}), {@code
 * commitSha}, {@code branch}, optional {@code prNumber}, {@code variant}, {@code jobUrl}, and
 * {@code uploadId} (a UUID the client may give so a retried upload is recognised; otherwise the id
 * is derived from the upload's content), {@code pathPrefix} (the directory the reports' paths are
 * relative to).
 */
public record UploadForm(
    Repo repo,
    String commitSha,
    String branch,
    Long prNumber,
    String variant,
    String jobUrl,
    String uploadId,
    String pathPrefix) {
  private static final int MAX_URL = 2048;
  private static final int MAX_PREFIX = 1024;
  private static final long MAX_UINT32 = 4_294_967_295L;

  public static UploadForm read(MultiValueMap<String, Part> parts) {
    String repoJson =
        field(parts, "repo")
            .orElseThrow(
                () ->
                    ApiException.badRequest(
                        "repo is required: a part holding {\"host\",\"owner\",\"name\"}"));
    Repo repo = JsonBody.repoPart(repoJson);
    String sha =
        StrictJson.checkName(
            "commitSha",
            field(parts, "commitSha")
                .orElseThrow(() -> ApiException.badRequest("commitSha is required")));
    String branch =
        StrictJson.checkName(
            "branch",
            field(parts, "branch")
                .orElseThrow(() -> ApiException.badRequest("branch is required")));
    Long pr =
        field(parts, "prNumber")
            .filter(p -> !p.isEmpty())
            .map(
                p -> {
                  String error = "prNumber must be an integer between 0 and 4294967295";
                  if (!p.matches("[0-9]{1,10}") || Long.parseLong(p) > MAX_UINT32) {
                    throw ApiException.badRequest(error);
                  }
                  return Long.parseLong(p);
                })
            .orElse(null);
    String variant = variant(field(parts, "variant").orElse(""), "variant");
    String jobUrl = field(parts, "jobUrl").filter(u -> !u.isEmpty()).orElse(null);
    if (jobUrl != null && (jobUrl.length() > MAX_URL || !jobUrl.matches("(?i)https?://\\S+"))) {
      throw ApiException.badRequest("jobUrl must be an http(s) URL of at most 2048 characters");
    }
    String uploadId =
        field(parts, "uploadId")
            .filter(u -> !u.isEmpty())
            .map(
                u -> {
                  try {
                    return UUID.fromString(u).toString();
                  } catch (IllegalArgumentException e) {
                    throw ApiException.badRequest("uploadId must be a UUID");
                  }
                })
            .orElse(null);
    String pathPrefix = pathPrefix(field(parts, "pathPrefix").orElse(""));
    return new UploadForm(repo, sha, branch, pr, variant, jobUrl, uploadId, pathPrefix);
  }

  /**
   * Where the reports' paths are relative to, inside the repository (a package of a monorepo whose
   * test runner writes paths from the package): a relative path without {@code ..}; null when not
   * given.
   */
  static String pathPrefix(String value) {
    String prefix = value.replace('\\', '/');
    while (prefix.endsWith("/")) {
      prefix = prefix.substring(0, prefix.length() - 1);
    }
    while (prefix.startsWith("./")) {
      prefix = prefix.substring(2);
    }
    if (prefix.isEmpty() || prefix.equals(".")) {
      return null;
    }
    if (prefix.length() > MAX_PREFIX
        || prefix.startsWith("/")
        || prefix.chars().anyMatch(Character::isISOControl)
        || java.util.Arrays.asList(prefix.split("/")).contains("..")) {
      throw ApiException.badRequest(
          "pathPrefix must be a path inside the repository (relative, without ..) of at most "
              + MAX_PREFIX
              + " characters");
    }
    return prefix;
  }

  /**
   * {@code report} with its test cases' paths from the repository root: the prefix put before each
   * file path, or before the suite's name where that names the file (jest-junit's {@code
   * {filepath}}).
   */
  ParsedReport located(ParsedReport report) {
    if (pathPrefix == null) {
      return report;
    }
    return new ParsedReport(
        report.fileName(),
        report.variant(),
        report.sha256(),
        report.results().stream()
            .map(
                r ->
                    r.at(
                        repositoryPath(
                            r.filePath() == null && SourcePath.namesAFile(r.parent())
                                ? r.parent()
                                : r.filePath())))
            .toList(),
        report.skipped(),
        report.started());
  }

  private String repositoryPath(String path) {
    if (path == null || pathPrefix == null) {
      return path;
    }
    String p = path.replace('\\', '/');
    while (p.startsWith("./")) {
      p = p.substring(2);
    }
    return p.startsWith("/") || p.startsWith(pathPrefix + "/") ? p : pathPrefix + "/" + p;
  }

  /** {@code value} as a variant, or a 400 naming {@code field}. */
  static String variant(String value, String field) {
    if (value.length() > StrictJson.MAX_NAME || value.chars().anyMatch(Character::isISOControl)) {
      throw ApiException.badRequest(
          field + " must be a string of at most 255 characters without control characters");
    }
    return value;
  }

  /** A plain form field's value (a part sent as a file is refused for these). */
  static java.util.Optional<String> field(MultiValueMap<String, Part> parts, String name) {
    Part part = parts.getFirst(name);
    if (part == null) {
      return java.util.Optional.empty();
    }
    if (!(part instanceof FormFieldPart field)) {
      throw ApiException.badRequest(name + " must be a form field, not a file");
    }
    return java.util.Optional.of(field.value().strip());
  }
}

package dev.trainyard.flaky.ingest;

import dev.trainyard.common.json.StrictJson;
import dev.trainyard.flaky.http.ApiException;
import dev.trainyard.flaky.http.JsonBody;
import dev.trainyard.flaky.owners.SourcePath;
import dev.trainyard.flaky.repo.Repo;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpStatus;
import org.springframework.http.codec.multipart.FilePart;
import org.springframework.http.codec.multipart.FormFieldPart;
import org.springframework.http.codec.multipart.Part;
import org.springframework.util.MultiValueMap;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The fields of an upload (API.md §6): {@code repo} (JSON {@code {host, owner, name}}), {@code
 * commitSha}, {@code branch}, optional {@code prNumber}, {@code variant}, {@code jobUrl}, and
 * {@code uploadId} (a UUID the client may give so a retried upload is recognised; otherwise the id
 * is derived from the upload's content), {@code pathPrefix} (the directory the reports' paths are
 * relative to), {@code timeZone} (the runner's: where a report's timestamp without a zone is).
 */
public record UploadForm(
    Repo repo,
    String commitSha,
    String branch,
    Long prNumber,
    String variant,
    String jobUrl,
    String uploadId,
    String pathPrefix,
    ZoneId timeZone) {

  private static final int MAX_URL = 2048;
  private static final int MAX_PREFIX = 1024;
  private static final int MAX_ZONE = 64;
  private static final long MAX_UINT32 = 4_294_967_295L;

  /** The form's fields, which clients send as form fields or as parts of their own type. */
  private static final List<String> FIELDS =
      List.of(
          "repo",
          "commitSha",
          "branch",
          "prNumber",
          "variant",
          "jobUrl",
          "uploadId",
          "pathPrefix",
          "timeZone");

  /** Bytes a field's value may hold, however it is sent; past it, a 413. */
  static final int MAX_FIELD_BYTES = 64 * 1024;

  /**
   * The form read from {@code parts}. A field may come as a plain form field or as a part with a
   * content type of its own (a {@code repo} sent as {@code application/json}, as {@code curl -F
   * 'repo=…;type=application/json'} and most HTTP libraries' JSON parts send it); a file part (one
   * with a file name) is refused for them.
   */
  public static Mono<UploadForm> read(MultiValueMap<String, Part> parts) {
    return Flux.fromIterable(FIELDS)
        .filter(parts::containsKey)
        .concatMap(name -> field(name, parts.getFirst(name)).map(value -> Map.entry(name, value)))
        .collectMap(Map.Entry::getKey, Map.Entry::getValue)
        .map(UploadForm::of);
  }

  /** The text of the field {@code name}: a form field or a part of its own type, never a file. */
  static Mono<String> field(String name, Part part) {
    if (part instanceof FilePart) {
      return Mono.error(ApiException.badRequest(name + " must be a form field, not a file"));
    }
    if (part instanceof FormFieldPart field) {
      return field.value().getBytes(StandardCharsets.UTF_8).length > MAX_FIELD_BYTES
          ? Mono.error(tooLarge(name))
          : Mono.just(field.value());
    }
    return text(part, MAX_FIELD_BYTES)
        .onErrorMap(DataBufferLimitException.class, e -> tooLarge(name));
  }

  /**
   * A part's content as UTF-8 text ({@code ""} when empty); past {@code limit} bytes a {@link
   * DataBufferLimitException}, which answers 413.
   */
  static Mono<String> text(Part part, int limit) {
    return DataBufferUtils.join(part.content(), limit)
        .map(
            buffer -> {
              try {
                return buffer.toString(StandardCharsets.UTF_8);
              } finally {
                DataBufferUtils.release(buffer);
              }
            })
        .defaultIfEmpty("");
  }

  private static ApiException tooLarge(String name) {
    return new ApiException(
        HttpStatus.CONTENT_TOO_LARGE,
        name + " is larger than the limit of " + MAX_FIELD_BYTES + " bytes");
  }

  /** The form of fields already read as text. */
  static UploadForm of(Map<String, String> fields) {
    Function<String, Optional<String>> field =
        name -> Optional.ofNullable(fields.get(name)).map(String::strip);
    String repoJson =
        field
            .apply("repo")
            .orElseThrow(
                () ->
                    ApiException.badRequest(
                        "repo is required: a part holding {\"host\",\"owner\",\"name\"}"));
    Repo repo = JsonBody.repoPart(repoJson);
    String sha =
        StrictJson.checkName(
            "commitSha",
            field
                .apply("commitSha")
                .orElseThrow(() -> ApiException.badRequest("commitSha is required")));
    String branch =
        StrictJson.checkName(
            "branch",
            field.apply("branch").orElseThrow(() -> ApiException.badRequest("branch is required")));
    Long pr =
        field
            .apply("prNumber")
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
    String variant = variant(field.apply("variant").orElse(""), "variant");
    String jobUrl = field.apply("jobUrl").filter(u -> !u.isEmpty()).orElse(null);
    if (jobUrl != null && (jobUrl.length() > MAX_URL || !jobUrl.matches("(?i)https?://\\S+"))) {
      throw ApiException.badRequest("jobUrl must be an http(s) URL of at most 2048 characters");
    }
    String uploadId =
        field
            .apply("uploadId")
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
    String pathPrefix = pathPrefix(field.apply("pathPrefix").orElse(""));
    ZoneId timeZone =
        field.apply("timeZone").filter(z -> !z.isEmpty()).map(UploadForm::zone).orElse(null);
    return new UploadForm(repo, sha, branch, pr, variant, jobUrl, uploadId, pathPrefix, timeZone);
  }

  /** {@code value} as a time zone: an IANA name or an offset, else a 400. */
  static ZoneId zone(String value) {
    try {
      if (value.length() <= MAX_ZONE) {
        return ZoneId.of(value);
      }
    } catch (java.time.DateTimeException e) {
      // refused below
    }
    throw ApiException.badRequest(
        "timeZone must be an IANA time zone (Europe/Berlin) or an offset (+01:00, Z)");
  }

  /**
   * When a report started: its timestamp with a zone; else its timestamp without one (the runner's
   * local time) in the upload's {@code timeZone}; null when the upload names none (it was read as
   * UTC before, which put the runs of a runner east of Greenwich later than they were).
   */
  Instant started(ParsedReport report) {
    if (report.started() != null) {
      return report.started();
    }
    return report.startedLocal() == null || timeZone == null
        ? null
        : report.startedLocal().atZone(timeZone).toInstant();
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
        || Arrays.asList(prefix.split("/")).contains("..")) {
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
        report.started(),
        report.startedLocal(),
        report.configuration());
  }

  /**
   * The variant of {@code report}'s test cases: its own ({@code file:<variant>}), else the
   * upload's.
   */
  String variantOf(ParsedReport report) {
    return report.variant() != null ? report.variant() : variant;
  }

  /**
   * The file path kept with a test case: the one its report gave (put in place by {@link
   * #located}), else, in an upload with a {@code pathPrefix}, the Java class's or Python module's
   * path under that prefix, so CODEOWNERS rules of a monorepo's package reach Surefire, Gradle and
   * pytest xunit2 tests too. The test's id is made before, from what the report gave: it does not
   * change.
   */
  String storedPath(String filePath, String classname, String parent) {
    if (filePath != null || pathPrefix == null) {
      return filePath;
    }
    return repositoryPath(SourcePath.ofClass(classname, parent));
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
}

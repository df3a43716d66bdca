package dev.trainyard.flaky.ingest;

import dev.trainyard.common.flaky.FlakyTestsHeaders;
import dev.trainyard.flaky.http.ApiException;
import dev.trainyard.flaky.http.Caller;
import dev.trainyard.flaky.http.JsonAnswers;
import dev.trainyard.flaky.owners.Codeowners;
import java.util.Map;
import java.util.Optional;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.codec.multipart.FormFieldPart;
import org.springframework.http.codec.multipart.Part;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * {@code POST /v1/flaky-tests/upload} (multipart): every file is parsed completely before anything
 * is written, so a rejected upload (400 naming the file and line, 413 beyond 100 MiB) stores
 * nothing. An optional {@code codeowners} part becomes the repository's CODEOWNERS: as a file part
 * at most 3 MiB, as a text field at most 256 KiB ({@code
 * spring.webflux.multipart.max-in-memory-size}, which bounds every non-file part of the up to 1,000
 * parts in memory); beyond either, a 413. Answers {@code {"uploadId", "testCases",
 * "skippedTestCases", "skipped", "collidingTestCases", "colliding"}}: the test cases kept; those
 * skipped (no name nor classname to know them by), the first of them named by file and line; and
 * the test ids that several files reported (a failure in either counts; a part named {@code
 * file:<variant>} tells configurations apart), the first of them named with both files.
 */
public class UploadHandler {
  private final Ingestion ingestion;
  private final IngestMeters meters;

  public UploadHandler(Ingestion ingestion, IngestMeters meters) {
    this.ingestion = ingestion;
    this.meters = meters;
  }

  public Mono<ServerResponse> upload(ServerRequest request) {
    return read(request)
        .doOnSuccess(written -> meters.accepted(written.testCases()))
        .doOnError(e -> meters.rejected())
        .flatMap(
            written ->
                JsonAnswers.ok(
                    Map.of(
                        "uploadId", written.uploadId(),
                        "testCases", written.testCases(),
                        "skippedTestCases", written.skippedCount(),
                        "skipped", written.skipped(),
                        "collidingTestCases", written.collisions(),
                        "colliding", written.colliding())));
  }

  private Mono<Ingestion.Written> read(ServerRequest request) {
    String org = Caller.org(request);
    MediaType type = request.headers().contentType().orElse(null);
    if (type == null || !MediaType.MULTIPART_FORM_DATA.isCompatibleWith(type)) {
      return Mono.error(ApiException.badRequest("the upload must be multipart/form-data"));
    }
    if (request.headers().contentLength().orElse(-1) > FlakyTestsHeaders.MAX_UPLOAD_BYTES) {
      return Mono.error(
          new ApiException(
              HttpStatus.CONTENT_TOO_LARGE,
              "the request body is larger than the limit of 100 MiB"));
    }
    return request
        .multipartData()
        .flatMap(
            parts ->
                UploadForm.read(parts)
                    .flatMap(
                        form ->
                            ReportReader.readAll(parts)
                                .zipWith(codeowners(parts.getFirst("codeowners")))
                                .flatMap(
                                    read ->
                                        ingestion.submit(
                                            org, form, read.getT1(), read.getT2().orElse(null)))));
  }

  private static Mono<Optional<String>> codeowners(Part part) {
    if (part == null) {
      return Mono.just(Optional.empty());
    }
    if (part instanceof FormFieldPart field) {
      return Mono.just(Optional.of(field.value()));
    }
    return UploadForm.text(part, Codeowners.MAX_FILE_BYTES).map(Optional::of);
  }
}

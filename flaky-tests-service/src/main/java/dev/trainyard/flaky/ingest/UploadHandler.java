package dev.trainyard.flaky.ingest;

import dev.trainyard.common.flaky.FlakyTestsHeaders;
import dev.trainyard.flaky.cases.QuarantineSetting;
import dev.trainyard.flaky.cases.TestCase;
import dev.trainyard.flaky.cases.TestCaseStore;
import dev.trainyard.flaky.http.ApiException;
import dev.trainyard.flaky.http.Caller;
import dev.trainyard.flaky.http.JsonAnswers;
import dev.trainyard.flaky.owners.Codeowners;
import dev.trainyard.flaky.quarantine.QuarantineHandler;
import dev.trainyard.flaky.repo.Repo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.codec.multipart.FormFieldPart;
import org.springframework.http.codec.multipart.Part;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * {@code POST /v1/flaky-tests/upload} (multipart): every file is parsed completely before anything
 * is written, so a rejected upload (400 naming the file and line, 413 beyond 100 MiB) stores
 * nothing. An optional {@code codeowners} part becomes the repository's CODEOWNERS: as a file part
 * at most 3 MiB, as a text field at most 256 KiB ({@code
 * spring.webflux.multipart.max-in-memory-size}, which bounds every non-file part of the up to 1,000
 * parts in memory); beyond either, a 413. Answers {@code {"uploadId", "testCases",
 * "skippedTestCases", "skipped", "collidingTestCases", "colliding", "outage"}}: the test cases
 * kept; those skipped (no name nor classname to know them by), the first of them named by file and
 * line; the test ids that several files reported (a failure in either counts; a part named {@code
 * file:<variant>} tells configurations apart), the first of them named with both files; and the
 * {@link Outage} the upload reads as, null when it does not.
 */
public class UploadHandler {
  private final Ingestion ingestion;
  private final IngestMeters meters;
  private final TestCaseStore cases;
  private final QuarantineHandler quarantine;

  public UploadHandler(
      Ingestion ingestion, IngestMeters meters, TestCaseStore cases, QuarantineHandler quarantine) {
    this.ingestion = ingestion;
    this.meters = meters;
    this.cases = cases;
    this.quarantine = quarantine;
  }

  /** What an upload wrote, and the quarantine overrides its renames carried over. */
  private record Uploaded(Ingestion.Written written, List<Map<String, Object>> renamed) {}

  public Mono<ServerResponse> upload(ServerRequest request) {
    return read(request)
        .doOnSuccess(uploaded -> meters.accepted(uploaded.written().testCases()))
        .doOnError(e -> meters.rejected())
        .flatMap(uploaded -> JsonAnswers.ok(answer(uploaded)));
  }

  /**
   * Carries the quarantine override of each rename's old test over to the upload's tests it names
   * that have none (through {@code set-quarantine-setting}'s own path: versioned, announced).
   */
  private List<Map<String, Object>> carryOver(
      String org, UploadForm form, List<ParsedReport> reports, List<Rename> renames) {
    Repo repo = form.repo();
    List<Map<String, Object>> carried = new ArrayList<>();
    for (Rename rename : renames) {
      Optional<TestCase> old = cases.find(org, repo.key(), rename.from());
      if (old.isEmpty() || old.get().quarantine() == QuarantineSetting.UNSPECIFIED) {
        continue;
      }
      for (String testId : Ingestion.testIds(form, reports, rename)) {
        Optional<TestCase> renamed = cases.find(org, repo.key(), testId);
        if (renamed.isPresent() && renamed.get().quarantine() == QuarantineSetting.UNSPECIFIED) {
          quarantine.change(
              org, repo, renamed.get(), old.get().quarantine(), "renamed from " + rename.from());
          carried.add(
              Map.of(
                  "from", rename.from(), "to", testId, "setting", old.get().quarantine().name()));
        }
      }
    }
    return carried;
  }

  private static Map<String, Object> answer(Uploaded uploaded) {
    Ingestion.Written written = uploaded.written();
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("uploadId", written.uploadId());
    answer.put("testCases", written.testCases());
    answer.put("skippedTestCases", written.skippedCount());
    answer.put("skipped", written.skipped());
    answer.put("collidingTestCases", written.collisions());
    answer.put("colliding", written.colliding());
    Outage outage = written.outage();
    answer.put(
        "outage",
        outage == null
            ? null
            : Map.of(
                "failedTestCases", outage.failed(),
                "ranTestCases", outage.ran(),
                "message", outage.message()));
    Ingestion.OtherConfigurations others = written.otherConfigurations();
    answer.put(
        "otherConfigurations",
        others == null
            ? null
            : Map.of("testCases", others.testCases(), "message", others.message()));
    answer.put("renamed", uploaded.renamed());
    return answer;
  }

  private Mono<Uploaded> read(ServerRequest request) {
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
                    .zipWith(Rename.read(parts))
                    .flatMap(
                        fields ->
                            ReportReader.readAll(parts)
                                .zipWith(codeowners(parts.getFirst("codeowners")))
                                .flatMap(
                                    read ->
                                        write(
                                            org,
                                            fields.getT1(),
                                            read.getT1(),
                                            read.getT2().orElse(null),
                                            fields.getT2()))));
  }

  private Mono<Uploaded> write(
      String org,
      UploadForm form,
      List<ParsedReport> reports,
      String codeowners,
      List<Rename> renames) {
    return ingestion
        .submit(org, form, reports, codeowners)
        .flatMap(
            written ->
                renames.isEmpty()
                    ? Mono.just(new Uploaded(written, List.of()))
                    : Mono.fromCallable(
                            () -> new Uploaded(written, carryOver(org, form, reports, renames)))
                        .subscribeOn(Schedulers.boundedElastic()));
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

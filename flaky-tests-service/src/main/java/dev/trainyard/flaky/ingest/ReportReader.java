package dev.trainyard.flaky.ingest;

import dev.trainyard.flaky.http.ApiException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.codec.multipart.FilePart;
import org.springframework.http.codec.multipart.FormFieldPart;
import org.springframework.http.codec.multipart.Part;
import org.springframework.util.MultiValueMap;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Reads every {@code file} part of an upload through the hardened parser as it streams (the
 * multipart reader keeps large parts in temporary files, never whole in memory). A file that is not
 * a JUnit report fails the whole upload with a 400 naming the file and line — before anything is
 * written.
 */
public final class ReportReader {
  private static final JunitXmlParser PARSER = new JunitXmlParser();

  /** A file part named {@code file:<variant>} carries its own variant. */
  static final String VARIANT_PART = "file:";

  /** Reports parsed at once: each holds a parser's buffers, so uploads beyond wait their turn. */
  static final int CONCURRENT_PARSES = Math.max(2, Runtime.getRuntime().availableProcessors());

  /** How long an upload waits for a turn before it is answered 503. */
  private static final long TURN_SECONDS = 30;

  private static final Semaphore PARSES = new Semaphore(CONCURRENT_PARSES, true);

  private ReportReader() {}

  /**
   * Reads the upload's {@code file} parts, and its {@code file:<variant>} parts, whose test cases
   * get that variant instead of the upload's (one upload for several configurations).
   */
  public static Mono<List<ParsedReport>> readAll(MultiValueMap<String, Part> parts) {
    List<Map.Entry<String, Part>> files = new ArrayList<>();
    parts.forEach(
        (name, list) -> {
          if (name.equals("file") || name.startsWith(VARIANT_PART)) {
            String variant =
                name.equals("file")
                    ? null
                    : UploadForm.variant(name.substring(VARIANT_PART.length()), name);
            list.forEach(part -> files.add(new AbstractMap.SimpleEntry<>(variant, part)));
          }
        });
    if (files.isEmpty()) {
      return Mono.error(
          ApiException.badRequest("file is required: one or more JUnit XML files as file parts"));
    }
    return Mono.defer(
        () -> {
          UploadLimits limits = new UploadLimits(); // one per upload, files read one at a time
          return Flux.fromIterable(files)
              .concatMap(file -> read(file.getValue(), file.getKey(), limits))
              .collectList();
        });
  }

  private static Mono<ParsedReport> read(Part part, String variant, UploadLimits limits) {
    String name =
        part instanceof FilePart file && !file.filename().isBlank() ? file.filename() : "file";
    return Mono.fromCallable(
            () ->
                parse(
                    name,
                    variant,
                    limits,
                    part instanceof FormFieldPart field
                        ? new ByteArrayInputStream(field.value().getBytes(StandardCharsets.UTF_8))
                        : DataBufferUtils.subscriberInputStream(part.content(), 4)))
        .subscribeOn(Schedulers.boundedElastic());
  }

  private static ParsedReport parse(
      String name, String variant, UploadLimits limits, InputStream source)
      throws IOException, InterruptedException {
    if (!PARSES.tryAcquire(TURN_SECONDS, TimeUnit.SECONDS)) {
      throw ApiException.unavailable(
          "the service is reading as many reports as it can at once; retry the upload");
    }
    try {
      return parseInTurn(name, variant, limits, source);
    } finally {
      PARSES.release();
    }
  }

  private static ParsedReport parseInTurn(
      String name, String variant, UploadLimits limits, InputStream source) throws IOException {
    MessageDigest sha = sha256();
    try (InputStream in = new DigestInputStream(source, sha)) {
      List<TestCaseResult> results = PARSER.parse(name, in, limits);
      in.transferTo(OutputStream.nullOutputStream()); // the digest covers every byte
      return new ParsedReport(
          name,
          variant,
          sha.digest(),
          results,
          limits.takeSkipped(),
          limits.takeStarted(),
          limits.takeStartedLocal(),
          limits.takeConfiguration());
    } catch (MalformedReportException e) {
      throw ApiException.badRequest(e.getMessage());
    }
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JVM", e);
    }
  }
}

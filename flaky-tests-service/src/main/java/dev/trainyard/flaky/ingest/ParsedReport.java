package dev.trainyard.flaky.ingest;

import java.time.Instant;
import java.time.LocalDateTime;
import java.util.List;

/**
 * One uploaded file, read completely: its name, its own variant (from a part named {@code
 * file:<variant>}; null: the upload's), the SHA-256 of its bytes, its test cases and those it held
 * that were not kept, and when its earliest suite started by its own timestamp (null: not said, or
 * said without a zone), with the earliest such timestamp without a zone ({@code startedLocal}: the
 * runner's local time, placed by the upload's {@code timeZone}), and where its tests ran by its
 * suite properties ({@code configuration}, null: not said; {@link UploadLimits#takeConfiguration}).
 */
public record ParsedReport(
    String fileName,
    String variant,
    byte[] sha256,
    List<TestCaseResult> results,
    UploadLimits.Skipped skipped,
    Instant started,
    LocalDateTime startedLocal,
    String configuration) {}

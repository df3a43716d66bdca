package dev.trainyard.flaky.ingest;

import java.time.Instant;
import java.util.List;

/**
 * One uploaded file, read completely: its name, its own variant (from a part named {@code
 * file:<variant>}; null: the upload's), the SHA-256 of its bytes, its test cases and those it held
 * that were not kept, and when its earliest suite started by its own timestamp (null: not said).
 */
public record ParsedReport(
    String fileName,
    String variant,
    byte[] sha256,
    List<TestCaseResult> results,
    UploadLimits.Skipped skipped,
    Instant started) {}

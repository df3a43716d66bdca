package dev.trainyard.flaky.ingest;

import java.util.List;

/**
 * One uploaded file, read completely: its name, the SHA-256 of its bytes, its test cases and those
 * it held that were not kept.
 */
public record ParsedReport(
    String fileName, byte[] sha256, List<TestCaseResult> results, UploadLimits.Skipped skipped) {}

package dev.trainyard.worker.engine;

/** A PR as a test run includes it: the head commit that was tested. */
public record TestedPr(String entryId, long number, String sha, String title) {}

package dev.trainyard.worker.scm;

/** A pull request's number, head commit and title, as a test run includes it. */
public record PullRequestHead(long number, String sha, String title) {}

/**
 * Quarantine: per-test overrides, the repository's automatic quarantine of flaky tests, and the
 * CI-facing config of quarantined tests (fail-safe: a CI step that cannot reach it quarantines
 * nothing).
 */
package dev.trainyard.flaky.quarantine;

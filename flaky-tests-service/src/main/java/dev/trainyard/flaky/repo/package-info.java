/**
 * Repositories as the flaky-tests service knows them: their identity and their settings (target
 * branch, automatic quarantine, CODEOWNERS), kept per organization.
 */
package dev.trainyard.flaky.repo;

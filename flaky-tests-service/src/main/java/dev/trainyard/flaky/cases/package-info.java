/**
 * Test cases as the service stores and shows them: the document model with its bounded run history,
 * the quarantine rule, and the list-item JSON of API.md §5.
 */
package dev.trainyard.flaky.cases;

/**
 * Pull-request endpoints (API.md §2): submit, cancel, restart, read (by number or branch), list
 * with keyset cursors over the versioned history, impacted targets and test-run details.
 */
package dev.trainyard.gateway.pulls;

/**
 * The {@code test_case.status_changed} and {@code test_case.quarantining_setting_changed} events
 * (API.md §7), published to {@code trainyard.events} for the webhook dispatcher to deliver.
 */
package dev.trainyard.flaky.events;

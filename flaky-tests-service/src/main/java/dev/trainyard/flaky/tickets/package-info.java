/** Tickets linked to test cases ({@code link-ticket-to-test-case}). */
package dev.trainyard.flaky.tickets;

/**
 * The gateway's side of the GitHub App adapter (API.md §6): the signed webhook receiver, and which
 * organization each installation serves.
 */
package dev.trainyard.gateway.scm.github;

/**
 * HTTP plumbing shared by every endpoint: strict request-body reading and validation, plain-text
 * errors with the status codes of API.md §1, and the mapping of infrastructure failures to 503.
 */
package dev.trainyard.gateway.http;

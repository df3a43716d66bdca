/**
 * Organizations and API tokens: tokens are stored as SHA-256 hashes and every request's token is
 * resolved to its organization before the body is read; admin endpoints need the admin token.
 */
package dev.trainyard.gateway.auth;

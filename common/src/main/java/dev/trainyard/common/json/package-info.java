/**
 * JSON settings shared by every service: one mapper configuration and the RFC 3339 timestamp form.
 */
package dev.trainyard.common.json;

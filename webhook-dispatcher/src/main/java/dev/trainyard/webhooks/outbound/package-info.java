/**
 * How deliveries reach endpoints: an HTTP client whose connections go only to addresses the
 * outbound guard ({@code dev.trainyard.common.net}) checked — a name is resolved once, on a bounded
 * pool of lookup threads with a timeout, and the connection goes to the checked address under the
 * URL's name (Host header and TLS SNI unchanged) — and that follows no redirect.
 */
package dev.trainyard.webhooks.outbound;

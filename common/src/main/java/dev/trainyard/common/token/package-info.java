/**
 * Opaque, tamper-evident paging tokens bound to the listing they were issued for, shared by every
 * service that pages (one implementation, one error type mapped to 400).
 */
package dev.trainyard.common.token;

/**
 * The contract between the gateway and the flaky-tests service it forwards to: the headers, paths
 * and limits, and the single-use proof the gateway signs each forwarded request with.
 */
package dev.trainyard.common.flaky;

/** The contract between the gateway and the flaky-tests service it forwards to. */
package dev.trainyard.common.flaky;

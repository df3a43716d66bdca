/**
 * The gateway's part of a trace: the request's span, returned to the client and given to commands.
 */
package dev.trainyard.gateway.telemetry;

/**
 * Turns engine state and events into what the outside sees: the read-model documents the gateway
 * serves (queue view, versioned pull-request rows) and the public events of API.md §7.
 */
package dev.trainyard.worker.projection;

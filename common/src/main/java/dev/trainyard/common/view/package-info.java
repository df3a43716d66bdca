/**
 * The read model: documents the queue worker writes and the gateway serves. They are shaped like
 * the API.md responses so that a read is a lookup, never a computation of queue rules.
 */
package dev.trainyard.common.view;

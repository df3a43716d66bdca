/** Queue endpoints (API.md §3): create, read, update and delete queues and their settings. */
package dev.trainyard.gateway.queues;

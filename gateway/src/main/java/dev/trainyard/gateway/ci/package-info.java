/** CI status intake ({@code /v1/ci/reportStatus}): statuses by commit, fanned out to the queues. */
package dev.trainyard.gateway.ci;

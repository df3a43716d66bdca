/**
 * Health on the API port: {@code /actuator/health} and its liveness and readiness probes answered
 * from the actuator's own health groups, status only, while every other actuator endpoint stays on
 * the management port (API.md §6).
 */
package dev.trainyard.gateway.health;

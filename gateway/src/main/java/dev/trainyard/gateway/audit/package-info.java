/**
 * The audit log (issue 50): every mutation through the API or the dashboard, and every admin
 * action, recorded with who made it (token or person), what, on which queue and PR, from where,
 * when and with what answer; kept for {@code TRAINYARD_AUDIT_RETENTION}, listed by {@code
 * listAuditEvents} and the dashboard's audit page, and shown on a PR's timeline.
 */
package dev.trainyard.gateway.audit;

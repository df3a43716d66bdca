/**
 * The API's description (API.md §9): {@code docs/openapi.yaml}, copied into the jar at build time,
 * served as YAML and as JSON at {@code /v1/openapi.{yaml,json}}, and rendered for people at {@code
 * /ui/api} by Swagger UI from its WebJar (no CDN).
 */
package dev.trainyard.gateway.docs;

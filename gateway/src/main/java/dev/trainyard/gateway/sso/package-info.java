/**
 * Single sign-on (API.md §8, ADR 0036): the identity providers people sign in to the dashboard
 * with, through Spring Security's OAuth 2.0 / OpenID Connect client, and the rules that turn what a
 * provider says about a person (their groups, their GitHub teams) into organizations and roles.
 */
package dev.trainyard.gateway.sso;

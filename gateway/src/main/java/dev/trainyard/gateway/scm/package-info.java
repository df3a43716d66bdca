/**
 * Signals from source hosts: a plain git server's post-receive hook ({@code /v1/scm/git/notify}).
 */
package dev.trainyard.gateway.scm;

/**
 * Where an organization's bare repositories live under the git root ({@code
 * <root>/<org>/<host>/<owner>/<name>.git}), and the one function that maps a repository to its
 * folder without ever leaving the organization's own.
 */
package dev.trainyard.common.git;

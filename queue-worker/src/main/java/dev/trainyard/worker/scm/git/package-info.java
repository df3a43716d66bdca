/**
 * The {@code git} adapter (JGit): bare repositories under the git root at {@code
 * <root>/<org>/<host>/<owner>/<name>.git}, PRs as {@code refs/pull/<n>/head}, merges computed in
 * memory (no working tree), test branches and merges written as commits and ref updates with an
 * expected old value, so a concurrent change is detected rather than overwritten.
 */
package dev.trainyard.worker.scm.git;

/** Who owns a test: CODEOWNERS files with GitHub's pattern semantics (the last match wins). */
package dev.trainyard.flaky.owners;

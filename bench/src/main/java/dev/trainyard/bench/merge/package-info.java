/**
 * Status-to-merge latency on the standalone stack, beside a bare JGit merge of the same commits.
 */
package dev.trainyard.bench.merge;

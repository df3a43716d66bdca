/**
 * The source-hosting port (ARCHITECTURE.md "Source hosting (SCM) adapters"): read a pull request,
 * compute its mergeability, build a test branch from a base and an ordered list of PR heads, merge
 * a tested run, delete a branch. Adapters live in sub-packages; the engine never calls them (the
 * shell runs them as effects off the listener threads and feeds their results back as commands).
 */
package dev.trainyard.worker.scm;

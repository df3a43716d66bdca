/**
 * Reading uploaded test results: a streaming, hardened JUnit XML parser that understands the common
 * producers (Maven Surefire, pytest, jest-junit, gotestsum), and the stable identity of a test
 * case.
 */
package dev.trainyard.flaky.ingest;

/**
 * The flaky-tests service: ingests JUnit XML uploads, classifies each test case as healthy, flaky
 * or broken, quarantines flaky ones, and pages through the unhealthy ones (API.md §5, §6). It is
 * reached only through the gateway, which authenticates the caller and names its organization with
 * a single-use proof of each request.
 */
package dev.trainyard.flaky;

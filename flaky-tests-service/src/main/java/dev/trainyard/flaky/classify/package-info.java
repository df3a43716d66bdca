/**
 * Classifies a test case as healthy, flaky or broken from its recent runs — a pure function of the
 * evidence, its previous status and the time, with the rules as one table (see the module README).
 */
package dev.trainyard.flaky.classify;

/** Wiring, settings ({@code trainyard.flaky.*}), routes and indexes of the flaky-tests service. */
package dev.trainyard.flaky.config;

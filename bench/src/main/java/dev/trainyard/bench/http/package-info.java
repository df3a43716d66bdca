/**
 * The HTTP load benchmark: drives a running standalone over real sockets with an open-loop (fixed
 * arrival rate) and a closed-loop (saturation) generator, beside {@code /actuator/health}.
 */
package dev.trainyard.bench.http;

/**
 * What every service's process shares when it runs on its own (a cluster pod) or inside the
 * standalone: the health of the broker and the store that decides readiness ({@link BrokerHealth},
 * {@link StoreHealth}), and the start-up check that turns a missing or malformed setting into one
 * line naming its environment variable ({@link ServiceMain}, {@link Setting}).
 *
 * <p>The rest of {@code common} is plain Java; this package alone uses Spring Boot, the Kafka
 * client and the MongoDB driver, which the module declares optional: each service brings its own
 * (ADR 0013).
 */
package dev.trainyard.common.boot;
